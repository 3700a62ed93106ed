// Checkpoint 11 · 学习脚手架：CompactionFields 已经声明；renderSummary()、compactionFiles() 已经写好，
// sinceNewestCompaction() 在 context.ts 里。Lab 11.4 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ③ 完成 `// Lab 11.4` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="生成压缩" packages/pi-coding-agent/dist/test/11-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import type { CompactionEntry, SessionEntry } from "../session/entries.js";
import { newEntryId } from "../session/entries.js";
import { parseEntry } from "../session/parse-entry.js";
import { sinceNewestCompaction } from "./context.js";
import { groupInteractions } from "./interactions.js";
import { renderSummary } from "./render.js";
import type { CompactionFiles, CompactionSummary } from "./summary.js";

export interface CompactionFields {
  summary: CompactionSummary;
  firstKeptEntryId: string;
  tokensBefore: number;
  files: CompactionFiles;
}

/**
 * The compaction entry for `path` (root first): its parent is the path's last entry, its
 * `summary` is rendered from `fields.summary`. A `firstKeptEntryId` that is not the first message
 * of an interaction after the newest compaction's cut is one line naming it.
 */
export function createCompactionEntry(
  path: readonly SessionEntry[],
  fields: CompactionFields,
  id?: string,
  now: Date = new Date(),
): CompactionEntry {
  // Lab 11.4 ①：路径是空的就一行报错；否则父条目是 path 的最后一条（path.at(-1)，不管它是什么类型：label、
  // session_info 也算，不是最后一条消息）。
  // Lab 11.4 ②：sinceNewestCompaction(path) 给出最新压缩之后的消息与它们的条目 id；groupInteractions() 的每段
  // 交互的第一条消息（entryIds[group.start]）才是合法的 firstKeptEntryId，其余的（调用、结果、回答、更早被
  // 总结的部分、不在分支上的 id）一行报错点名它。
  // Lab 11.4 ③：id 没给就用 newEntryId() 取一个路径上没有的（给了就用它）；timestamp 是 now.toISOString()；summary
  // 用 renderSummary() 渲染，details 是文件清单加 structured；最后交给 parseEntry()（检查 tokensBefore 等字段并返回
  // 副本）。什么也不写进存储：调用者追加它。
  throw new Error("Lab 11.4 生成压缩条目 尚未实现");
}
