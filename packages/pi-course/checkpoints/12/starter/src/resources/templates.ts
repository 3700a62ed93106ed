// Checkpoint 12 · 学习脚手架：userMessage() 来自 @pi/core。
// Lab 12.3 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ②（本文件）与 context.ts 的 ③ 完成 `// Lab 12.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="模板与上下文" packages/pi-coding-agent/dist/test/12-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
import { readFileSync } from "node:fs";
import { type UserMessage, userMessage } from "@pi/core";
import type { Resource } from "./types.js";

/**
 * `$1`…`$9` are the positional arguments (a missing one is empty), `$@` is every argument joined
 * by one space, `$$` is a literal `$`; anything else after `$` stays as it is. The text is
 * scanned once, left to right, so an argument that contains `$1` is never expanded again.
 */
export function renderTemplate(
  template: Resource | { name: string; text: string },
  args: readonly string[],
): UserMessage {
  // Lab 12.3 ①：模板的文字是 template.text，或者（一个发现的模板资源）读 template.path 的文件，原样（不 trim，末尾的换行也留着）。
  // 用一个正则 /\$([1-9@$])/g 一遍替换：$$ → $，$@ → 参数用一个空格连起来（空串参数也算一个），$N → 第 N 个参数（缺了就是空串）。
  // 一遍从左到右：替换进去的参数不会再被扫描，参数里的 "$1" 原样留下。返回 userMessage(渲染的文字)。
  throw new Error("Lab 12.3 模板与上下文 尚未实现");
}

/**
 * The words after `/name`: split on whitespace, and "double" or 'single' quotes group words
 * (the quotes themselves are dropped). An unclosed quote is a one-line error.
 */
export function splitTemplateArgs(line: string): string[] {
  // Lab 12.3 ②：用 /"([^"]*)"|'([^']*)'|(\S+)/g 逐个匹配（\S 之外的空格、制表符、换行都是分隔）：引号里的原样是一个参数（去掉引号，里面的空格不 trim；空的 "" 或 '' 也是
  // 一个参数，空串），其余是一个词。一个不带引号的词里还有 " 或 '，就是没配对的引号：一行报错
  // `参数 ${词} 里的引号没有配对：用成对的 "…" 或 '…' 把带空格的参数包起来`。
  throw new Error("Lab 12.3 模板与上下文 尚未实现");
}
