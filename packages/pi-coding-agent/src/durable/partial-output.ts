// Lab 19.4 · 部分输出: streamed text is committed as it arrives, in batches of at least
// `minChars` characters (never one commit per token). What is held when the stream ends is not
// committed as a partial: the completed answer is committed as a message right after it.

export class PartialOutput {
  private held = "";

  constructor(
    private readonly commit: (text: string) => void,
    private readonly minChars = 64,
  ) {}

  /** One text delta of the stream. */
  add(text: string): void {
    this.held += text;
    if (this.held.length >= this.minChars) this.flush();
  }

  /** Commits what is held now (add() calls it once a batch is full); nothing when nothing is. */
  flush(): void {
    if (this.held === "") return;
    const text = this.held;
    this.held = "";
    this.commit(text);
  }
}
