// Checkpoint 10 · 学习脚手架：条目的类型在 entries.ts 里（Pi 第 3 版会话格式），indexById() 与
// pathTo() 的签名和复制条目的 copyEntries() 已经写好；Lab 10.1 的算法先抛出“尚未实现”的临时错误。按 ① → ③ 完成
// `// Lab 10.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="分支路径" packages/pi-coding-agent/dist/test/10-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import type { SessionEntry } from "./entries.js";
import { copyJsonShapes } from "./json-copy.js";

/** Entries by id; an id that occurs twice anywhere is one line naming it. */
export function indexById(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
  // Lab 10.1 ①：把每个条目按 id 放进一个 Map。遇到 Map 里已经有的 id，就抛出一行错误，点名这个 id：
  // 重复 id 在任何位置都不行，即使它不在要走的分支上。
  throw new Error("Lab 10.1 沿 parentId 走出分支 尚未实现");
}

/**
 * The chain root → `leafId` (deep copies, root first). A leaf that is not there, a parent that
 * is missing on the chain, or a chain that loops is one line naming the entry.
 */
export function pathTo(entries: readonly SessionEntry[], leafId: string): SessionEntry[] {
  // Lab 10.1 ②：先 indexById(entries)，再从 leafId 出发沿 parentId 往回走，直到 parentId 为 null。
  // 找不到叶：一行错误点名 leafId；链上找不到某个父条目：一行错误点名断在哪个条目、缺的是哪个 id；
  // 走回到这次已经走过的 id：parentId 成环，同样一行错误。只检查这条链：兄弟分支坏了不影响它。
  // Lab 10.1 ③：把走出的链反转成根 → 叶，用 copyEntries 返回深拷贝：调用者改动它不影响条目。
  throw new Error("Lab 10.1 沿 parentId 走出分支 尚未实现");
}

/** Deep copies of entries that are already in a store (see json-copy.ts). */
export function copyEntries(entries: readonly SessionEntry[]): SessionEntry[] {
  return entries.map(copyJsonShapes);
}
