// Every checkpoint's focused test names the chapter rule behind each assertion: an assertion that
// compares or checks a value carries its own message, so verify's first failure says which rule
// was broken instead of Node's generic "Expected values to be strictly equal:".
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { loadManifest, repoRoot } from "../lib/course/manifest.js";

/** Assertions whose failure text is generic without a message, and how many arguments a message makes. */
const WITH_MESSAGE: Record<string, number> = {
  ok: 2,
  equal: 3,
  notEqual: 3,
  deepEqual: 3,
  notDeepEqual: 3,
  strictEqual: 3,
  deepStrictEqual: 3,
  match: 3,
  doesNotMatch: 3,
};

/** The top-level arguments of the call whose "(" is at `open` in `source`, as source text. */
function callArguments(source: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = open + 1; i < source.length; i += 1) {
    const char = source[i] ?? "";
    if (char === '"' || char === "'" || char === "`") {
      const end = closingQuote(source, i);
      current += source.slice(i, end + 1);
      i = end;
      continue;
    }
    if ("([{".includes(char)) depth += 1;
    if (")]}".includes(char)) {
      if (depth === 0) break;
      depth -= 1;
    }
    if (char === "," && depth === 0) {
      args.push(current);
      current = "";
    } else current += char;
  }
  if (current.trim() !== "") args.push(current);
  return args;
}

/** Where the string literal that starts at `start` ends (template literals' `${…}` may hold quotes). */
function closingQuote(source: string, start: number): number {
  const quote = source[start];
  for (let i = start + 1; i < source.length; i += 1) {
    if (source[i] === "\\") i += 1;
    else if (quote === "`" && source.startsWith("${", i)) {
      let depth = 0;
      for (; i < source.length; i += 1) {
        if (source[i] === "{") depth += 1;
        if (source[i] === "}" && --depth === 0) break;
      }
    } else if (source[i] === quote) return i;
  }
  return source.length;
}

/** `file:line assert.x(…)` for each assertion in `source` that has no message of its own. */
function unnamedAssertions(file: string, source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\bassert\.(\w+)\(/g)) {
    const needed = WITH_MESSAGE[match[1] ?? ""];
    if (needed === undefined) continue;
    const open = (match.index ?? 0) + match[0].length - 1;
    if (callArguments(source, open).length >= needed) continue;
    const line = source.slice(0, match.index).split("\n").length;
    found.push(`${file}:${line} assert.${match[1]}(…)`);
  }
  return found;
}

test("每个检查点的聚焦测试：比较与检查值的断言都带着它检查的章节规则（自己的说明）", () => {
  const files = [...new Set(loadManifest().checkpoints.map((checkpoint) => checkpoint.focusedTest))];
  assert.ok(files.length > 0, "清单列出聚焦测试");
  const unnamed = files.flatMap((file) => unnamedAssertions(file, readFileSync(path.join(repoRoot, file), "utf8")));
  assert.deepEqual(unnamed, [], "这些断言没有说明它检查的规则");
});

test("断言扫描本身：认得出没有说明的断言，也认得出模板字符串里的说明", () => {
  const source = [
    'assert.equal(a, 1, "steps 计数已完成的请求");',
    "assert.deepEqual(events, [1, 2]);",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: test source text holding a template literal
    "assert.ok(x, `${label}：只有一个 turn_end`);",
    'assert.match(f(a, "b,c"), /x/);',
  ].join("\n");
  assert.deepEqual(unnamedAssertions("x.ts", source), ["x.ts:2 assert.deepEqual(…)", "x.ts:4 assert.match(…)"]);
});
