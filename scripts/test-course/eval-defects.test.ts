// The eval's task suite is strong enough to notice a broken agent: each planted defect (a
// find/replace on checkpoint 14's target, built in a temp tree) fails at least the task named
// here, and the eval's table names that task. One target tree takes the defects one after
// another (each rebuild is incremental); the original file is put back between them. Like the
// planted mistakes, the defects judge a suite's strength, which no Node major changes: with
// --node-sensitive nothing is run (the eval on each Node is checked by eval-from.test.ts and npm test).
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { findCheckpoint, repoRoot } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { type Mutation, mutatedFiles } from "../lib/mutation/mutants.js";
import { runNode } from "../lib/run/child-process.js";
import { buildTree } from "../lib/run/focused-run.js";
import { skipUnlessFullRun } from "../lib/run/node-sensitive.js";
import { withTempTree } from "../lib/trees/temp-tree.js";

const checkpoint = findCheckpoint("14");
const agent = "packages/pi-coding-agent/src";

interface Defect {
  name: string;
  mutations: Mutation[];
  /** A task this defect must fail. */
  fails: string;
}

const DEFECTS: Defect[] = [
  {
    name: "工具的工作区边界被去掉",
    fails: "refuse-escape",
    mutations: [
      {
        file: `${agent}/tools/workspace-path.ts`,
        find: "  if (!isInside(path.resolve(root), lexical) && !isInside(realRoot, lexical)) throw outside(requested, root);\n",
        replace: "",
      },
      {
        file: `${agent}/tools/workspace-path.ts`,
        find: "  if (!isInside(realRoot, real)) throw outside(requested, root);\n",
        replace: "",
      },
    ],
  },
  {
    name: "压缩把一个调用和它的结果切开",
    fails: "long-compaction",
    mutations: [
      {
        file: `${agent}/compaction/context.ts`,
        find: "  const cut = groups[kept.first]?.start ?? messages.length;\n",
        replace: "  const cut = kept.first === 0 ? 0 : (groups[kept.first]?.start ?? messages.length) + 2;\n",
      },
    ],
  },
  {
    name: "恢复会话时丢掉最后一个条目",
    fails: "resume-crash",
    mutations: [
      {
        file: `${agent}/session/jsonl-store.ts`,
        find: "store.restore(recovered.entries);",
        replace: "store.restore(recovered.entries.slice(0, -1));",
      },
    ],
  },
];

/** Runs both parts of the suite on the tree's own harness and agent; the reports and the eval's table. */
const SUITE_SCRIPT = `
import { pathToFileURL } from "node:url";
const [tree, repo] = process.argv.slice(1);
const code = await import(pathToFileURL(tree + "/packages/pi-coding-agent/dist/src/index.js").href);
const cli = (file) => import(pathToFileURL(repo + "/packages/pi-coding-agent/dist/src/eval-cli/" + file).href);
const { HELD_OUT_TASKS } = await cli("held-out.js");
const { runsTable } = await cli("table.js");
const reports = await code.runSuite([...code.PRACTICE_TASKS, ...HELD_OUT_TASKS], code.runtimeAgent);
process.stdout.write(JSON.stringify({ reports, table: runsTable(reports) }));
`;

interface SuiteRun {
  failed: string[];
  table: string;
}

const skip = skipUnlessFullRun();
const runs: Promise<SuiteRun[]> = skip
  ? Promise.resolve([])
  : withTempTree(checkpoint, "target", {}, async (dir) => {
      const original = targetFiles(checkpoint);
      const results: SuiteRun[] = [];
      for (const defect of DEFECTS) {
        const files = mutatedFiles(defect.mutations, (file) => original.get(file) ?? "");
        for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
        const build = await buildTree(dir, checkpoint);
        assert.ok(build.ok, `${defect.name}：可以构建（${build.errors.join("; ")}）`);
        const child = await runNode(["--input-type=module", "-e", SUITE_SCRIPT, dir, repoRoot], dir);
        assert.equal(child.code, 0, `${defect.name}：套件运行完（${child.output.slice(-400)}）`);
        const { reports, table } = JSON.parse(child.output) as {
          reports: { task: string; outcome: { verdict: string } }[];
          table: string;
        };
        results.push({ failed: reports.filter((r) => r.outcome.verdict !== "pass").map((r) => r.task), table });
        for (const file of Object.keys(files)) await writeFile(path.join(dir, file), original.get(file) ?? "");
      }
      return results;
    });
runs.catch(() => undefined);

for (const [index, defect] of DEFECTS.entries()) {
  test(`评测发现植入的缺陷：${defect.name} → ${defect.fails} 不通过，表格写出这个任务`, { skip }, async () => {
    const run = (await runs)[index] as SuiteRun;
    assert.ok(
      run.failed.includes(defect.fails),
      `${defect.name} 应让 ${defect.fails} 失败；失败的是 ${run.failed.join("、") || "没有"}`,
    );
    const row = run.table.split("\n").find((line) => line.startsWith(`${defect.fails} `));
    assert.match(row ?? "", /失败|错误/, `表格里 ${defect.fails} 这一行写着失败（实际：${row}）`);
  });
}
