// The README is an index: Chinese first, short, linking to each chapter's guide (where the chapter's
// command block is) and to docs/ for the rest. Nothing a learner had is lost: every command the
// README carried before it became an index is in the README, a guide, or a docs/ file it links to.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { commandBlockProblems } from "../lib/course/check/command-block-check.js";
import { loadManifest, repoRoot } from "../lib/course/manifest.js";

const read = (relative: string) => readFileSync(path.join(repoRoot, relative), "utf8");
const readme = read("README.md");
const oneSpace = (text: string) => text.replace(/\s+/g, " ");

/** The docs/ files the README links to, repository-relative. */
function linkedDocs(): string[] {
  const links = [...readme.matchAll(/\]\((docs\/[^)#\s]+\.md)(?:#[^)]*)?\)/g)].map((match) => match[1] ?? "");
  return [...new Set(links)];
}

test("README 是索引：中文在前，不超过 400 行，英文部分不超过 150 行", () => {
  const lines = readme.split("\n");
  const english = lines.indexOf("## English");
  assert.ok(english > 0, "README 有 ## English 一节");
  assert.ok(lines.length <= 400, `README 有 ${lines.length} 行，索引不超过 400 行`);
  assert.ok(lines.length - english <= 150, `英文部分有 ${lines.length - english} 行，不超过 150 行`);
  const chineseFirst = lines.slice(0, english).join("\n");
  for (const part of [
    "## 安装与测试",
    "## 从哪里开始",
    "## 课程表",
    "## 用你自己写的 agent 工作",
    "docs/maintainers.md",
  ]) {
    assert.ok(chineseFirst.includes(part), `中文部分有“${part}”`);
  }
});

test("README 链接的 docs/ 文件都存在", () => {
  const docs = linkedDocs();
  assert.ok(docs.length >= 5, `README 链接 docs/ 里的说明：${docs.join("、")}`);
  for (const doc of docs) assert.ok(existsSync(path.join(repoRoot, doc)), `README 链接的 ${doc} 存在`);
});

test("每一章的指南都有它的命令块（练习、--from 上一章、构建、聚焦运行、每段 Lab、verify、卡片、diff、诊断）", () => {
  const { checkpoints } = loadManifest();
  for (const [index, checkpoint] of checkpoints.entries()) {
    assert.deepEqual(commandBlockProblems(checkpoint, checkpoints[index - 1]), [], `第 ${checkpoint.id} 章的指南`);
  }
});

test("README 成为索引之前写着的每条命令，都还在 README、某一章的指南或 README 链接的 docs/ 文件里", () => {
  const guides = loadManifest().checkpoints.flatMap((checkpoint) => (checkpoint.guide ? [checkpoint.guide] : []));
  const places = ["README.md", ...guides, ...linkedDocs()].map((file) => oneSpace(read(file)));
  const commands = read("scripts/test/fixtures/readme-commands.txt")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
  assert.ok(commands.length > 200, `清单有 ${commands.length} 条命令`);
  const lost = commands.filter((command) => !places.some((place) => place.includes(oneSpace(command))));
  assert.deepEqual(lost, [], "这些命令不在任何地方了");
});
