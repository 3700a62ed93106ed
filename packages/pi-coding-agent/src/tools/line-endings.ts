// Given (not a lab): a file's UTF-8 BOM and line endings. edit matches on the text with every
// CRLF read as LF, and writes each replaced region back with the ending of the lines it replaced,
// so a file that mixes CRLF and LF keeps both.

export const BOM = "\uFEFF";

/** The file's text with CRLF read as LF, and where each CR was dropped. */
export interface LfText {
  /** The text without its BOM, every CRLF written as LF. */
  text: string;
  bom: boolean;
  /** Ascending indexes in `text` of the LFs that were CRLF in the file. */
  crlfAt: number[];
}

export function toLf(content: string): LfText {
  const bom = content.startsWith(BOM);
  const body = bom ? content.slice(1) : content;
  const crlfAt: number[] = [];
  const parts: string[] = [];
  let from = 0;
  for (let at = body.indexOf("\r\n"); at !== -1; at = body.indexOf("\r\n", at + 2)) {
    parts.push(body.slice(from, at));
    crlfAt.push(at - crlfAt.length);
    from = at + 1;
  }
  parts.push(body.slice(from));
  return { text: parts.join(""), bom, crlfAt };
}

/** The index in the file's body (BOM left out) of index `at` of the LF text. */
export function bodyIndex(lf: LfText, at: number): number {
  // Every dropped CR before `at` shifts it by one; an LF at `at` itself starts at its CR.
  let low = 0;
  let high = lf.crlfAt.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((lf.crlfAt[middle] as number) < at) low = middle + 1;
    else high = middle;
  }
  return at + low;
}

/** The ending the lines `body[start, end)` use: their own first newline's, else that of the line they are on. */
export function endingOf(body: string, start: number, end: number): "\n" | "\r\n" {
  const inside = body.indexOf("\n", start);
  const newline = inside !== -1 && inside < end ? inside : body.indexOf("\n", end);
  if (newline === -1) {
    const before = body.lastIndexOf("\n", start);
    return before > 0 && body[before - 1] === "\r" ? "\r\n" : "\n";
  }
  return newline > 0 && body[newline - 1] === "\r" ? "\r\n" : "\n";
}

/** `value` with every line ending (LF or CRLF) written as `eol`. */
export function withLineEndings(value: string, eol: "\n" | "\r\n"): string {
  const lf = value.replace(/\r\n/g, "\n");
  return eol === "\n" ? lf : lf.replace(/\n/g, "\r\n");
}
