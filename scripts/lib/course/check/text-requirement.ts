// A text a file must carry (the README's course table row, a guide's command block), with what it is
// as a problem line names it.

export interface TextRequirement {
  /** What it is, as the problem line names it. */
  what: string;
  /** The text the file must carry. */
  text: string;
  found: (content: string) => boolean;
}

export const literal = (what: string, text: string): TextRequirement => ({
  what,
  text,
  found: (content) => content.includes(text),
});
