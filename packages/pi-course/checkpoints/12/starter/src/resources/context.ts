// Checkpoint 12 · 学习脚手架：Resource 的形状在 types.ts。
// Lab 12.3 的算法先抛出“尚未实现”的临时错误。
// 按 templates.ts 的 ① → ② 与本文件的 ③ 完成 `// Lab 12.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="模板与上下文" packages/pi-coding-agent/dist/test/12-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import type { Resource } from "./types.js";

/**
 * Context files in the order given, each under its path, then the skills catalogue: each skill's
 * name, description and location, never its body (activation reads that). Empty when there is
 * nothing to say. The caller appends it to the system prompt: it is never a message.
 */
export function formatResourceContext(
  contextFiles: readonly { path: string; content: string }[],
  skills: readonly Resource[],
): string {
  // Lab 12.3 ③：每个上下文文件按给的顺序写成 `<context_file path="${path}">\n${content.trim()}\n</context_file>`（前后不多换行）。
  // skills 里 kind 为 "skill" 的（别的种类不算）至少有一个时，才再写一段（没有技能就没有这一段，哪怕有上下文文件）：
  // 第一行 <available_skills>，第二行
  // "Activate a skill to read its instructions before you follow it."，每个技能
  // `<skill name="${name}" location="${path}">\n${description}\n</skill>`，最后 </available_skills>；这一段的
  // 各行（包括一个个 <skill> 条目）之间只用一个换行（"\n"）连接。没有正文：正文只在激活时读。
  // 段与段之间（上下文文件之间、上下文文件与技能目录之间）空一行（"\n\n"）；什么都没有就是空串。
  throw new Error("Lab 12.3 模板与上下文 尚未实现");
}
