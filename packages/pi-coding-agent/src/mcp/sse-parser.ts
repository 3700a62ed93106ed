// Server-sent events as the Streamable HTTP transport receives them: `data:` lines of one event are
// joined, a blank line ends the event, comments (`:`) and other fields are skipped. Only the data of
// `message` events (the default) is handed on.

export class SseParser {
  private partial = "";
  private data: string[] = [];
  private event = "message";

  constructor(private readonly onData: (data: string) => void) {}

  push(text: string): void {
    const lines = (this.partial + text).split(/\r\n|\r|\n/);
    this.partial = lines.pop() ?? "";
    for (const line of lines) this.line(line);
  }

  end(): void {
    if (this.partial !== "") this.line(this.partial);
    this.partial = "";
    this.line("");
  }

  private line(line: string): void {
    if (line === "") {
      if (this.data.length > 0 && this.event === "message") this.onData(this.data.join("\n"));
      this.data = [];
      this.event = "message";
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
  }
}
