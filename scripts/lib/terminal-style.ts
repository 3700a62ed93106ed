// Colour for the learner-facing CLIs (demo, verify): ANSI on a terminal, plain text anywhere else.

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
