import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { applyPatch } from "diff";
import { checkpoint as checkpointCommand } from "../lib/cli/checkpoint-command.js";
import { findCheckpoint, labError, loadManifest, repoRoot } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { applyLab, formatLabChanges, labChanges, labSegments } from "../lib/diff/lab-regions.js";
import { UsageError } from "../lib/usage-error.js";

function read(relative: string): string {
  return readFileSync(path.join(repoRoot, relative), "utf8");
}

const teachingPairs = loadManifest().checkpoints.flatMap((checkpoint) =>
  checkpoint.teachingFiles.map((file) => ({
    checkpoint,
    file,
    starter: read(checkpoint.starters[file] ?? ""),
    target: targetFiles(checkpoint).get(file) ?? "",
    labIds: checkpoint.labs.map((lab) => lab.id),
  })),
);

test("checkpoint --lab：starter 里每个 Lab 的临时错误都落在这个 Lab 的改动中", () => {
  for (const checkpoint of loadManifest().checkpoints) {
    const starters = teachingPairs.filter((pair) => pair.checkpoint === checkpoint).map((pair) => pair.starter);
    for (const lab of checkpoint.labs) {
      assert.ok(
        starters.some((starter) => starter.includes(labError(lab))),
        `${checkpoint.id}：starter 含 ${labError(lab)}`,
      );
    }
  }
  for (const { checkpoint, file, starter, target, labIds } of teachingPairs) {
    const segments = labSegments(starter, target, labIds);
    for (const lab of checkpoint.labs) {
      const errorLines = starter.split("\n").filter((line) => line.includes(labError(lab)));
      const covered = segments.flatMap((segment) =>
        segment.kind === "change" && segment.labs.includes(lab.id) ? segment.removed : [],
      );
      for (const line of errorLines)
        assert.ok(covered.includes(`${line}\n`), `${file}：Lab ${lab.id} 的改动替换 ${line.trim()}`);
    }
  }
});

test("checkpoint --lab：不属于任何 Lab 的改动只有注释，代码改动全部分到某个 Lab", () => {
  for (const { file, starter, target, labIds } of teachingPairs) {
    const segments = labSegments(starter, target, labIds);
    for (const segment of segments) {
      if (segment.kind !== "change" || segment.labs.length > 0) continue;
      for (const line of [...segment.removed, ...segment.added]) {
        assert.match(line, /^\s*($|\/\/|\/\*|\*)/, `${file}：无 Lab 的改动只应是注释，却有 ${line.trim()}`);
      }
    }
    const everything = segments.flatMap((segment) => (segment.kind === "same" ? segment.lines : segment.added));
    assert.equal(everything.join(""), target, `${file}：所有块合起来正好是 starter → target`);
  }
});

test("checkpoint --lab 7.N 的 diff 能应用到 starter，只去掉这个 Lab 的临时错误", () => {
  for (const { checkpoint, file, starter } of teachingPairs) {
    for (const lab of checkpoint.labs.filter((candidate) => starter.includes(labError(candidate)))) {
      const [change] = labChanges(checkpoint, lab.id).filter((candidate) => candidate.file === file);
      assert.ok(change, `Lab ${lab.id} 在 ${file} 中有改动`);
      const patched = applyPatch(starter, change.patch);
      assert.ok(patched !== false, `Lab ${lab.id} 的 diff 能应用到 starter`);
      assert.ok(!patched.includes(labError(lab)), `Lab ${lab.id} 的临时错误都已替换`);
      for (const other of checkpoint.labs.filter(
        (candidate) =>
          starter.includes(labError(candidate)) && !change.blocks.some((b) => b.labs.includes(candidate.id)),
      )) {
        assert.ok(patched.includes(labError(other)), `Lab ${lab.id} 的 diff 不碰 Lab ${other.id}`);
      }
    }
  }
});

test("checkpoint --lab 的划分规则：夹在两个 Lab 之间的插入归后面的桩，孤立代码归第一个 Lab，孤立注释不归任何 Lab", () => {
  const starter = [
    "function a() {",
    '  throw new Error("Lab 1.1 a 尚未实现");',
    "}",
    "const x = 0;",
    "// Lab 1.2: the rest",
    'throw new Error("Lab 1.2 rest 尚未实现");',
    "",
    "",
    "const version = 1;",
    "",
    "",
    "// scaffold note",
    "",
  ].join("\n");
  const target = [
    "function a() {",
    "  return 1;",
    "}",
    "const extra = a();",
    "const x = 0;",
    "const rest = x + extra;",
    "",
    "",
    "const version = 2;",
    "",
    "",
    "",
  ].join("\n");
  const segments = labSegments(starter, target, ["1.1", "1.2"]);
  const labsOf = (fragment: string) => {
    const found = segments.find(
      (segment) => segment.kind === "change" && [...segment.removed, ...segment.added].join("").includes(fragment),
    );
    return found?.kind === "change" ? found.labs : undefined;
  };

  assert.deepEqual(labsOf("return 1;"), ["1.1"], "桩所在 Lab");
  assert.deepEqual(labsOf("const extra"), ["1.2"], "两边各隔一行时归后面的桩");
  assert.deepEqual(labsOf("x + extra"), ["1.2"]);
  assert.deepEqual(labsOf("version = 2"), ["1.1"], "孤立代码归第一个 Lab");
  assert.deepEqual(labsOf("scaffold note"), [], "孤立注释不归任何 Lab");
  assert.ok(applyLab(segments, "1.2").includes('throw new Error("Lab 1.1 a 尚未实现")'), "只应用 1.2 时 1.1 的桩还在");
  assert.ok(!applyLab(segments, "1.2").includes("Lab 1.2 rest"));
});

test("checkpoint --lab 未知编号：一行说明列出可用的 Lab", () => {
  const checkpoint = findCheckpoint("07");
  assert.throws(
    () => formatLabChanges(checkpoint, "7.9"),
    (error: unknown) =>
      error instanceof UsageError &&
      !error.message.includes("\n") &&
      /7\.1、7\.2、7\.3、7\.4、7\.5/.test(error.message),
  );
});

test("checkpoint 07 --lab 7.2 打印 Lab 7.2 的 diff；与 --diff 同用时一行说明", async () => {
  const output = await checkpointCommand(["07", "--lab", "7.2"], repoRoot);
  assert.match(output, /^Lab 7\.2 闭合单工具往返/);
  assert.match(output, /^--- a\/packages\/pi-course\/src\/agent-loop\.ts\tstarter$/m);
  assert.match(output, /^-.*Lab 7\.2 闭合单工具往返 尚未实现/m);
  assert.match(output, /^\+.*executeToolCall\(call, \{/m);
  await assert.rejects(checkpointCommand(["07", "--lab", "7.2", "--diff"], repoRoot), UsageError);
});
