// Terminal output of the learner-facing CLIs: colour (ANSI on a terminal, plain text anywhere
// else) and column widths for aligning plain text that mixes Chinese and ASCII.

export interface Style {
  title(text: string): string;
  heading(text: string): string;
  dim(text: string): string;
  name(text: string): string;
  ok(text: string): string;
  bad(text: string): string;
}

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export const colourStyle: Style = {
  title: ansi(1, 22),
  heading: ansi(1, 22),
  dim: ansi(2, 22),
  name: ansi(36, 39),
  ok: ansi(32, 39),
  bad: ansi(31, 39),
};

const same = (text: string) => text;
export const plainStyle: Style = { title: same, heading: same, dim: same, name: same, ok: same, bad: same };

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Style {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  return stream.isTTY === true && !noColor ? colourStyle : plainStyle;
}

/** Terminal columns of plain `text`: CJK, Hangul, full-width forms and emoji take two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += isWide(char.codePointAt(0) ?? 0) ? 2 : 1;
  return width;
}

/** `text` followed by spaces up to `width` terminal columns. */
export function padDisplay(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) || // Hangul Jamo initials
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) || // CJK radicals … Yi
    (code >= 0xac00 && code <= 0xd7a3) || // Hangul syllables
    (code >= 0xf900 && code <= 0xfaff) || // CJK compatibility ideographs
    (code >= 0xfe30 && code <= 0xfe4f) || // CJK compatibility forms
    (code >= 0xff00 && code <= 0xff60) || // full-width forms
    (code >= 0xffe0 && code <= 0xffe6) || // full-width signs
    (code >= 0x1f300 && code <= 0x1f64f) || // pictographs and emoticons
    (code >= 0x1f900 && code <= 0x1f9ff) || // supplemental pictographs
    code >= 0x20000 // CJK extensions B and later
  );
}
