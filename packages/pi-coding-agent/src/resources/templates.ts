// Lab 12.3 · 模板与上下文: a prompt template becomes one user message, by one placeholder protocol.
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
  const source = "text" in template ? template.text : readFileSync(template.path, "utf8");
  const rendered = source.replace(/\$([1-9@$])/g, (_, key: string) => {
    if (key === "$") return "$";
    if (key === "@") return args.join(" ");
    return args[Number(key) - 1] ?? "";
  });
  return userMessage(rendered);
}

/**
 * The words after `/name`: split on whitespace, and "double" or 'single' quotes group words
 * (the quotes themselves are dropped). An unclosed quote is a one-line error.
 */
export function splitTemplateArgs(line: string): string[] {
  const args: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    const [word, double, single, bare] = match;
    if (bare !== undefined && /["']/.test(bare)) {
      throw new Error(`参数 ${word} 里的引号没有配对：用成对的 "…" 或 '…' 把带空格的参数包起来`);
    }
    args.push(double ?? single ?? bare ?? "");
  }
  return args;
}
