// `checkpoint NN --prove` interrupted: its folders under the system temp folder and practice/ go
// with it, and a run killed outright leaves folders the next run removes.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../lib/course/manifest.js";
import { practiceRoot } from "../lib/user-paths.js";
import { HANG_GUARD_MS } from "./support/hang-guard.js";

/** This run's prove folders: `pi-course-prove-pid<pid>-…` and `practice/.prove-pid<pid>-…`. */
function proveFolders(pid: number): string[] {
  const mine = (dir: string, prefix: string) =>
    readdirSync(dir)
      .filter((name) => name.startsWith(`${prefix}pid${pid}-`))
      .map((name) => path.join(dir, name));
  return [...mine(os.tmpdir(), "pi-course-prove-"), ...mine(practiceRoot, ".prove-")];
}

test("--prove 收到 SIGINT：系统临时目录与 practice/ 里它的目录都被删除，进程以该信号结束", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/checkpoint.ts", "06", "--prove"], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid ?? 0;
  // Both folders exist before any check starts: look once per turn of the event loop until they do.
  while (proveFolders(pid).length < 2 && child.exitCode === null) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(proveFolders(pid).length, 2, "--prove 建好了两个目录");
  child.kill("SIGINT");
  const signal = await new Promise((resolve) => child.once("close", (_code, signal) => resolve(signal)));
  assert.equal(signal, "SIGINT", "进程以 SIGINT 结束");
  assert.deepEqual(proveFolders(pid), [], "没有留下目录");
});

test("被 SIGKILL 的 --prove 留下的目录，下一次 --prove 开始时删除", { timeout: HANG_GUARD_MS }, async () => {
  const dead = 2 ** 22 + 17;
  const left = [
    path.join(os.tmpdir(), `pi-course-prove-pid${dead}-abcdef`),
    path.join(practiceRoot, `.prove-pid${dead}-abcdef`),
  ];
  for (const dir of left) mkdirSync(dir, { recursive: true });
  const { ProveContext } = await import("../lib/prove/prove-context.js");
  const context = await ProveContext.create();
  await context.dispose();
  assert.deepEqual(proveFolders(dead), [], "已不在的进程留下的目录被删除");
});
