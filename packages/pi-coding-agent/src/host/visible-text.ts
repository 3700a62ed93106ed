// Text from the model, a tool or a server reaches the terminal with its control characters shown,
// not obeyed: an escape sequence could clear the screen, retitle the window or write the clipboard
// (OSC 52). Newlines and tabs stay; a CR right before a newline is dropped; every other C0 or C1
// control character and DEL is written as \xNN.

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function visible(text: string): string {
  return text.replace(CONTROL, (char: string, at: number) =>
    char === "\r" && text[at + 1] === "\n" ? "" : `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}
