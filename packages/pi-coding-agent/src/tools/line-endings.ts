// Given (not a lab): a file's UTF-8 BOM and line endings, kept as they were when a tool edits it.

const BOM = "\uFEFF";

export interface TextShape {
  bom: boolean;
  eol: "\n" | "\r\n";
}

/** The file's text without its BOM, and the shape to restore on write. */
export function splitShape(content: string): { body: string; shape: TextShape } {
  const bom = content.startsWith(BOM);
  const body = bom ? content.slice(1) : content;
  const firstNewline = body.indexOf("\n");
  const eol = firstNewline > 0 && body[firstNewline - 1] === "\r" ? "\r\n" : "\n";
  return { body, shape: { bom, eol } };
}

/** `value` with every line ending (LF or CRLF) written as `eol`. */
export function withLineEndings(value: string, eol: TextShape["eol"]): string {
  const lf = value.replace(/\r\n/g, "\n");
  return eol === "\n" ? lf : lf.replace(/\n/g, "\r\n");
}

export function restoreBom(body: string, shape: TextShape): string {
  return shape.bom ? BOM + body : body;
}
