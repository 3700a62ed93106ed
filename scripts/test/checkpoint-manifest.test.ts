import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { courseProblems } from "../lib/course/check-course.js";
import {
  findCheckpoint,
  focusedTestCount,
  labError,
  loadManifest,
  ManifestLookupError,
  repoRoot,
} from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";

const manifest = loadManifest();

function read(relative: string): string {
  return readFileSync(path.join(repoRoot, relative), "utf8");
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

test("检查点清单：每个检查点的字段、路径、starter 与第一次红灯彼此一致", () => {
  assert.deepEqual(courseProblems(manifest), []);
  assert.ok(manifest.checkpoints.length > 0);
});

test("检查点清单：07 的五段 Lab 依次选中 1、1、2、2、3 项，共 9 项", () => {
  const checkpoint = findCheckpoint("07");
  assert.deepEqual(
    checkpoint.labs.map((lab) => [lab.id, lab.pattern, lab.expected]),
    [
      ["7.1", "纯文本 stop", 1],
      ["7.2", "单工具往返", 1],
      ["7.3", "非执行终态", 2],
      ["7.4", "并发工具", 2],
      ["7.5", "取消与上限", 3],
    ],
  );
  assert.equal(focusedTestCount(checkpoint), 9);
  assert.equal(checkpoint.firstRed, "Lab 7.1 收集模型终态 尚未实现");
});

test("检查点编号：7、007、../07 与空编号格式不对，99 不存在，各得一行说明怎样改", () => {
  for (const id of ["7", "007", "../07", "", " 07"]) {
    assert.throws(
      () => findCheckpoint(id),
      (error: unknown) => {
        assert.ok(error instanceof ManifestLookupError, `"${id}" 是 ManifestLookupError`);
        assert.match(error.message, /格式不对：请用两位数字，例如 00/);
        assert.doesNotMatch(error.message, /\n/);
        return true;
      },
    );
  }
  const known = manifest.checkpoints.map((checkpoint) => checkpoint.id).join("、");
  assert.throws(
    () => findCheckpoint("99"),
    new RegExp(`^ManifestLookupError: 没有检查点 99：可用的检查点是 ${known}。$`),
  );
});

test("starter：每段 Lab 至少有一个“Lab 7.N <标题> 尚未实现”，7.1 恰好两个，在 collectModelTurn() 与 finish() 中", () => {
  for (const checkpoint of manifest.checkpoints) {
    const starter = Object.values(checkpoint.starters)
      .map((file) => read(file))
      .join("\n");
    for (const lab of checkpoint.labs) {
      assert.ok(occurrences(starter, `throw new Error("${labError(lab)}");`) >= 1, `${lab.id} 有临时错误`);
      assert.match(starter, new RegExp(`// Lab ${lab.id.replace(".", "\\.")} `), `${lab.id} 有编号注释`);
    }
    const allLabErrors = starter.match(/Lab \d+\.\d+ [^"]* 尚未实现/g) ?? [];
    const known = new Set(checkpoint.labs.map(labError));
    assert.deepEqual(
      allLabErrors.filter((message) => !known.has(message)),
      [],
      "每个临时错误的标题都来自清单",
    );
  }
  const starter = read(findCheckpoint("07").starters["packages/pi-course/src/agent-loop.ts"] ?? "");
  const first = 'throw new Error("Lab 7.1 收集模型终态 尚未实现");';
  assert.equal(occurrences(starter, first), 2);
  const finish = starter.slice(starter.indexOf("const finish = "), starter.indexOf("for (let steps"));
  const collect = starter.slice(
    starter.indexOf("async function collectModelTurn"),
    starter.indexOf("function skippedCall"),
  );
  assert.equal(occurrences(finish, first), 1, "finish() 中一个");
  assert.equal(occurrences(collect, first), 1, "collectModelTurn() 中一个");
});

test("starter：声明 target 的五个公共名字，且与 target 的类型声明逐字相同", () => {
  const checkpoint = findCheckpoint("07");
  for (const [teaching, starterPath] of Object.entries(checkpoint.starters)) {
    const target = targetFiles(checkpoint).get(teaching) ?? "";
    const starter = read(starterPath);
    const exported = (source: string) =>
      [...source.matchAll(/^export (?:async function|function|type|interface|const) (\w+)/gm)].map((m) => m[1]).sort();
    assert.deepEqual(exported(starter), exported(target));
    assert.deepEqual(exported(target), [
      "AgentLoopOptions",
      "AgentRunResult",
      "LoopEvent",
      "ToolExecutor",
      "runAgentLoop",
    ]);
    for (const name of ["AgentLoopOptions", "AgentRunResult", "LoopEvent", "ToolExecutor"]) {
      const declaration = new RegExp(
        `^export (?:type|interface) ${name}\\b(?:[^\\n{]*;$|[\\s\\S]*?^(?:}|  \\| .*;)$)`,
        "m",
      );
      const inTarget = declaration.exec(target)?.[0];
      assert.ok(inTarget, `target 声明 ${name}`);
      assert.equal(declaration.exec(starter)?.[0], inTarget, `${name} 与 target 相同`);
    }
  }
});

test("检查点清单的规则：第二个检查点列出 parent.files、重复新增与 Lab 编号错位，各得一条说明", () => {
  const [first, second] = structuredClone(manifest.checkpoints);
  assert.ok(first && second);
  const has = (checkpoints: typeof manifest.checkpoints, text: string) =>
    courseProblems({ checkpoints }).some((problem) => problem.includes(text));
  const secondParentFiles = { ...second, parent: { description: "x", files: [] } };
  assert.ok(has([first, secondParentFiles], `"parent.files" 只属于第一个检查点`), "parent.files 只属于第一个检查点");
  const addedTwice = { ...second, target: { ...second.target, adds: [...second.target.adds, first.focusedTest] } };
  assert.ok(has([first, addedTwice], `target.adds 里的 ${first.focusedTest} 在 parent 里已经有了`), "重复新增");
  const misnumbered = { ...second, labs: second.labs.map((lab, index) => (index === 0 ? { ...lab, id: "7.9" } : lab)) };
  assert.ok(has([first, misnumbered], `lab 7.9 应编号为 ${Number(second.id)}.1`), "Lab 编号错位");
});
