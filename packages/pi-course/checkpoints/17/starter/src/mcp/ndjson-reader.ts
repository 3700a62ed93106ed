// Checkpoint 17 · 学习脚手架：stdout 上按行切开的 JSON。事件接口、overflow() 已经写好。Lab 17.1 的几处先抛出“尚未实现”的临时错误。按编号完成
// `// Lab 17.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="消息" packages/pi-coding-agent/dist/test/17-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
    // Lab 17.1 ②：一块数据里可能有几行、半行，或者一行的中间（甚至一个汉字的中间）：
    //   按字节找 0x0a（换行）；换行之前的部分与 this.chunks 里攒着的拼成一行（Buffer.concat，拼好再解码），
    //   交给 this.line(line.toString("utf8"))，清空 this.chunks 与 this.buffered，接着找下一个换行；
    //   剩下没有换行的部分放进 this.chunks、加到 this.buffered，等下一块。
    //   攒着的（加上这一行的）字节超过 this.maxLineBytes → this.overflow() 并停下；this.stopped 之后什么都不做。
    throw new Error("Lab 17.1 消息 尚未实现");
  }

  private line(text: string): void {
    // Lab 17.1 ③：去掉首尾空白；空行跳过；JSON.parse 失败 → this.events.garbage(一个 Error，消息含
    //   "MCP server wrote a line that is not JSON" 与那一行的前 80 个字符)，然后照常读下去（不抛出）；
    //   解析成功 → this.events.value(value)。
    throw new Error("Lab 17.1 消息 尚未实现");
  }

  private overflow(): void {
    this.stopped = true;
    this.chunks = [];
    this.buffered = 0;
    const mib = Math.round(this.maxLineBytes / 1024 / 1024);
    this.events.overflow(new Error(`MCP server wrote a line longer than ${mib} MiB; connection closed`));
  }
}
