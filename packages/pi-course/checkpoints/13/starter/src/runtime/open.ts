// Checkpoint 13 · 学习脚手架：openRuntime() 与 restoredPath() 的签名已经声明，createRuntime()（runtime.ts）已经能
// 构造 Runtime。Lab 13.1 的两处先抛出“尚未实现”的临时错误。按 ① → ② 完成 `// Lab 13.1` 注释描述的动作，
// 删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="打开" packages/pi-coding-agent/dist/test/13-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import type { SessionEntry } from "../session/entries.js";
import type { SessionStore } from "../session/memory-store.js";
import { createRuntime } from "./runtime.js";
import { type Runtime, RuntimeError, type RuntimeOptions } from "./types.js";

/** The Runtime's control surface on `options.session`, at `options.leaf` (required when the session holds entries). */
export function openRuntime(options: RuntimeOptions): Runtime {
  // Lab 13.1 ②：core = createRuntime(options, restoredPath(options.session, options.leaf))。core 除了控制面，还带着
  // engine、session、model：原样返回它，调用方就能绕过 Runtime 直接提示或写会话。返回 Object.freeze() 过的新对象，
  // 只含 Runtime 接口的 12 个成员（prompt、steer、abort、queued、subscribe、flush、dispose、messages、compaction、
  // leafId、failure、systemPrompt），每个取 core 上的同名成员。
  throw new Error("Lab 13.1 打开 尚未实现");
}

/** Root → `leaf`, deep-copied; [] for an empty session. One RuntimeError line for a missing or unknown leaf. */
export function restoredPath(session: SessionStore, leaf: string | undefined): SessionEntry[] {
  // Lab 13.1 ①：空会话（session.entries().length === 0）：给了 leaf 就抛 RuntimeError
  // `会话是空的，没有条目 ${leaf}：打开空会话时不要指定 leaf。`，否则返回 []。
  // 非空会话：没给 leaf 就抛 `会话已有 ${count} 个条目：打开时要用 leaf 明确指定从哪个条目继续（例如 session.leafId()）。`
  // ——不要替调用方猜最后一个条目；leaf 不在会话里（session.has()）就抛 `会话里没有 id 为 ${leaf} 的条目：leaf 要是会话里已有的条目。`
  // 最后返回 structuredClone(session.pathTo(leaf))：存储交出来的对象可能还是它自己的。
  throw new Error("Lab 13.1 打开 尚未实现");
}
