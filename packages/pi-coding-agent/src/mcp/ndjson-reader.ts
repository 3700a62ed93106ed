// Splits a byte stream into newline-delimited JSON messages. A half line waits for the rest; a line
// that is not JSON is reported and skipped; a line longer than the limit is a server out of control
// (it would hold the whole of it in memory), reported once as fatal.

export interface NdjsonEvents {
  value(value: unknown): void;
  /** A line that is not JSON; reading goes on. */
  garbage(error: Error): void;
  /** A line longer than the limit; reading stops. */
  overflow(error: Error): void;
}

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export class NdjsonReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private stopped = false;

  constructor(
    private readonly events: NdjsonEvents,
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let rest = chunk;
    while (!this.stopped) {
      const newline = rest.indexOf(0x0a);
      if (newline === -1) {
        if (rest.length > 0) {
          this.chunks.push(rest);
          this.buffered += rest.length;
        }
        if (this.buffered > this.maxLineBytes) this.overflow();
        return;
      }
      const tail = rest.subarray(0, newline);
      rest = rest.subarray(newline + 1);
      if (this.buffered + tail.length > this.maxLineBytes) {
        this.overflow();
        return;
      }
      const line = this.chunks.length === 0 ? tail : Buffer.concat([...this.chunks, tail]);
      this.chunks = [];
      this.buffered = 0;
      this.line(line.toString("utf8"));
    }
  }

  private line(text: string): void {
    const trimmed = text.trim();
    if (trimmed === "") return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      this.events.garbage(
        new Error(`MCP server wrote a line that is not JSON: ${JSON.stringify(trimmed.slice(0, 80))}`),
      );
      return;
    }
    this.events.value(value);
  }

  private overflow(): void {
    this.stopped = true;
    this.chunks = [];
    this.buffered = 0;
    const mib = Math.round(this.maxLineBytes / 1024 / 1024);
    this.events.overflow(new Error(`MCP server wrote a line longer than ${mib} MiB; connection closed`));
  }
}
