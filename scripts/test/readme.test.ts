// The README is the learner's first instructions: its commands must be the ones the integrity
// tests run, spelled from the manifest, and every npm script it names must exist.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { readmeRequirements } from "../lib/course/check/readme-check.js";
import { loadManifest, repoRoot } from "../lib/course/manifest.js";
import { runScenario } from "../lib/demo/demo-scenarios.js";
import { formatRun } from "../lib/demo/demo-text.js";
import { plainStyle } from "../lib/terminal-style.js";

const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");

function scriptsOf(relative: string): Record<string, string> {
  const json = JSON.parse(readFileSync(path.join(repoRoot, relative), "utf8")) as { scripts?: Record<string, string> };
  return json.scripts ?? {};
}

test("README：课程表里每个检查点一行（聚焦测试数来自清单）并链接到它的指南", () => {
  for (const checkpoint of loadManifest().checkpoints) {
    for (const { what, text, found } of readmeRequirements(checkpoint)) {
      assert.ok(found(readme), `README 缺少检查点 ${checkpoint.id} 的${what}：${text}`);
    }
  }
});

test("README：提到的 npm run 脚本在根目录或对应 workspace 中都存在", () => {
  const root = scriptsOf("package.json");
  const workspaces: Record<string, Record<string, string>> = {
    "@pi/course": scriptsOf("packages/pi-course/package.json"),
    "@pi/core": scriptsOf("packages/pi-core/package.json"),
    "@pi/ai": scriptsOf("packages/pi-ai/package.json"),
    "@pi/coding-agent": scriptsOf("packages/pi-coding-agent/package.json"),
  };
  const mentions = [...readme.matchAll(/npm run (?:-s )?([\w:-]+)(?: -w (@pi\/[\w-]+))?/g)];
  assert.ok(mentions.length > 10, "README 里应有 npm run 命令");
  for (const [, script = "", workspace] of mentions) {
    const scripts = workspace === undefined ? root : workspaces[workspace];
    assert.ok(scripts !== undefined, `README 提到未知的 workspace ${workspace}`);
    assert.ok(script in scripts, `README 提到的 npm run ${script}${workspace ? ` -w ${workspace}` : ""} 不存在`);
  }
  assert.ok(readme.includes("npm install") && readme.includes("npm test"), "README 给出安装与测试两条命令");
});

test("README：CI 脚本 .ci/run 做 README 告诉新用户与维护者的事（npm ci，npm test，npm run test:course），再在 Node 22 和 24 上跑同一套测试", () => {
  const ci = readFileSync(path.join(repoRoot, ".ci/run"), "utf8");
  // Each step is a timed phase: `phase "<name>" <command>` (.ci/phases.sh).
  const commands = ci
    .split("\n")
    .map((line) => /^phase "[^"]*" (npm .*)$/.exec(line.trim())?.[1])
    .filter((command) => command !== undefined);
  assert.deepEqual(commands, [
    "npm ci",
    "npm test",
    "npm run test:course",
    "npm run test:chaos",
    "npm run -s test:node -- --node-sensitive 22 24",
  ]);
  assert.ok(readme.includes("npm run test:chaos"), "README 的维护者部分写出第 19 章的混沌测试");
  assert.ok(
    readme.includes("npm run test:node -- --node-sensitive 22 24"),
    "README 的维护者部分写出 CI 的 Node 22、24 一步",
  );
  assert.ok(readme.includes("npm run test:matrix"), "README 的维护者部分写出本地重现矩阵的命令");
  assert.ok(readme.includes("npm run test:course"), "README 写出课程完整性测试的命令");
});

test("docs/demo.md（README 链接它）：展示的 npm run demo 输出与 demo 现在打印的一字不差", async () => {
  const demo = readFileSync(path.join(repoRoot, "docs/demo.md"), "utf8");
  assert.ok(readme.includes("(docs/demo.md)"), "README 链接 docs/demo.md");
  const afterCommand = demo.indexOf("```text\n", demo.indexOf("npm run demo\n"));
  assert.ok(afterCommand !== -1, "docs/demo.md 在 npm run demo 之后给出输出");
  const shown = demo.slice(afterCommand + "```text\n".length, demo.indexOf("```", afterCommand + 8));
  const printed = formatRun(await runScenario("readme"), plainStyle);
  assert.equal(shown.trimEnd(), printed.trimEnd());
});
