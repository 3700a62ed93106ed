// Checkpoint 19 · 学习脚手架：部分输出。Lab 19.4 的两处先抛出“尚未实现”的临时错误。按编号完成 `// Lab 19.4`
// 注释描述的动作，删除临时错误，再完成 runtime-steps.ts 与 recovery.ts 里 Lab 19.4 的几步，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="部分输出" packages/pi-coding-agent/dist/test/19-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
    // Lab 19.4 ①：把 text 接到 this.held 后面；攒够 this.minChars 个字符才 flush()：一批一次提交，绝不每个 token 一次。
    throw new Error("Lab 19.4 部分输出 尚未实现");
  }

  /** Commits what is held now (add() calls it once a batch is full); nothing when nothing is. */
  flush(): void {
    // Lab 19.4 ②：this.held 是空串 → 什么也不做；否则先清空 this.held，再 this.commit(攒下的文本)。
    throw new Error("Lab 19.4 部分输出 尚未实现");
  }
}
