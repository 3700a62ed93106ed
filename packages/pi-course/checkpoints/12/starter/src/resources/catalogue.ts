// Checkpoint 12 · 学习脚手架：Catalogue、Resource 与 Shadowing 的形状在 types.ts；compare() 已经写好。
// Lab 12.1 的算法先抛出“尚未实现”的临时错误。
// 按 roots.ts 的 ① → ③ 与本文件的 ④ → ⑤ 完成 `// Lab 12.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="资源的根" packages/pi-coding-agent/dist/test/12-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import type { Catalogue, Diagnostic, Resource, Shadowing } from "./types.js";

/**
 * `found` is in root order (lowest precedence first). Context files all apply, in that order.
 * For skills, templates and extensions a later root wins for the same (kind, name); each loser
 * is recorded with its winner. Winners are listed by (kind, name), whatever order they came in.
 */
export function buildCatalogue(found: readonly Resource[], diagnostics: readonly Diagnostic[] = []): Catalogue {
  // Lab 12.1 ④：上下文文件（kind 为 "context"）不遮挡：按原来的顺序全部放进 contextFiles（不按名字排序）。名称逐字比较（不改大小写）。
  // 其余的按 (kind, name) 放进一个 Map：同一个键后来的胜出，被它替下的按被遮住的先后记进 shadowed（{ winner, shadowed }）。
  // Lab 12.1 ⑤：被遮住的可能又遮住过更早的：每条 shadowed 的 winner 改成这个键最终的胜者。胜者按
  // 先 kind 再 name 用 compare() 排序（不用 localeCompare：换一台机器、换一个语言环境，顺序都不变）。
  // 返回 { resources, contextFiles, shadowed, diagnostics: [...diagnostics] }。
  throw new Error("Lab 12.1 根与优先级 尚未实现");
}

/** Code-unit order: the same on every machine and locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
