// Checkpoint 10 · 学习脚手架：RecoveredSession 与 recoverSession() 的签名已经写好，会话头用
// parseHeader() 解析，条目用 read（默认是你在实践 10.2 写的 checkEntry()）就地检查；Lab 10.4 的算法先抛出
// “尚未实现”的临时错误。
// 按 ① → ③ 完成 `// Lab 10.4` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="JSONL 恢复" packages/pi-coding-agent/dist/test/10-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import type { SessionEntry, SessionHeader } from "./entries.js";
import { checkEntry, parseHeader } from "./parse-entry.js";

export interface RecoveredSession {
  header: SessionHeader;
  entries: SessionEntry[];
  /** UTF-8 bytes of the committed part: everything up to and including the last newline. */
  committedBytes: number;
  /** The line a write was cut off on, when the file does not end with a newline. */
  tornTail?: { line: number; bytes: number };
}

/** Turns one parsed line into an entry, or throws one line naming why it is not one. */
export type EntryReader = (value: unknown) => SessionEntry;

/**
 * The committed header and entries of the session file `file`, whose text is `content`. Each line
 * after the header is read by `read`: this chapter's checkEntry, or a host's reader that also
 * knows entry types a later chapter (or upstream Pi) writes.
 */
export function recoverSession(content: string, file: string, read: EntryReader = checkEntry): RecoveredSession {
  // Lab 10.4 ①：content.split("\n")，再 pop() 出最后一段：它在最后一个换行之后，是没写完的残行，
  // 不算提交（文件以换行结尾时它是空字符串）。
  // Lab 10.4 ②：其余每一行的物理行号是 index + 1（空行也计数）。只有空白的行跳过；否则 JSON.parse，
  // 失败就抛出一行“<file> 第 N 行不是合法的 JSON”；第一条非空行用 parseHeader()，之后的用
  // read()（默认是 checkEntry()；JSON.parse 刚做出的值只有 JSON 的形状、不属于别人，不必再复制），它们的错误也
  // 加上“<file> 第 N 行：”。走完还没有会话头，也是一行错误。
  // Lab 10.4 ③：返回 header、entries、committedBytes（全部字节减去残行的 UTF-8 字节），残行不为空
  // 时再加上 tornTail: { line, bytes }（bytes 也是残行的 UTF-8 字节数，不是字符数）。只读 content，从不写文件。
  throw new Error("Lab 10.4 恢复一个 JSONL 文件 尚未实现");
}
