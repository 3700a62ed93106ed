// Colour for the human view: only on a terminal, and never when NO_COLOR is set (https://no-color.org).

export interface Style {
  dim(text: string): string;
  name(text: string): string;
  ok(text: string): string;
  bad(text: string): string;
}

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

export const plainStyle: Style = { dim: plain, name: plain, ok: plain, bad: plain };
const colourStyle: Style = { dim: ansi(2, 22), name: ansi(36, 39), ok: ansi(32, 39), bad: ansi(31, 39) };

export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Style {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  return stream.isTTY === true && !noColor ? colourStyle : plainStyle;
}
