// The focused-test processes verify starts run in a process group of their own (so a hung run can
// be killed as a whole). They must still die with verify however verify dies: its process group
// killed with SIGKILL (no handler runs), or its terminal closed (SIGHUP). The learner's loop here
// spins forever, as a real unfinished lab can.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { processesIn, waitFor } from "../../packages/pi-coding-agent/test/cli-support/processes.js";
import { findCheckpoint, repoRoot } from "../lib/course/manifest.js";
import { mutatedFiles } from "../lib/mutation/mutants.js";
import { buildTree } from "../lib/run/focused-run.js";
import { startTestTrace } from "../lib/run/test-trace.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";
import { HANG_GUARD_MS } from "./support/hang-guard.js";

const linuxOnly = { skip: process.platform !== "linux", timeout: HANG_GUARD_MS };
const checkpoint = findCheckpoint("07");
let holder: string;
let dir: string;

before(async () => {
  if (process.platform !== "linux") return;
  holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-guarded-"));
  dir = path.join(holder, "spinning-07");
  const loopHead = "  for (let steps = 1; steps <= maxSteps; steps += 1) {\n";
  const spinning = mutatedFiles([
    {
      file: checkpoint.teachingFiles[0] ?? "",
      find: loopHead,
      replace: `  while (options.maxSteps !== 0) {}\n${loopHead}`,
    },
  ]);
  await writeCheckpointTree(checkpoint, "practice", dir, { files: spinning });
  const build = await buildTree(dir, checkpoint);
  assert.ok(build.ok, build.output);
});

after(async () => {
  if (holder === undefined) return;
  // Should a test fail, the orphans it found must not outlive the run.
  for (const line of processesIn(dir)) process.kill(Number(line.split(":")[0]), "SIGKILL");
  await rm(holder, { recursive: true, force: true });
});

/** Starts verify on the spinning tree as the leader of its own process group; resolves once its lab runs spin. */
async function verifyWithSpinningLabs() {
  const verify = spawn(process.execPath, ["--import", "tsx", "scripts/verify.ts", "07", dir], {
    cwd: repoRoot,
    detached: true,
    stdio: "ignore",
  });
  const closed = new Promise<void>((resolve) => verify.on("close", () => resolve()));
  const labRuns = () => processesIn(dir).filter((line) => line.includes("--test-reporter=tap"));
  await waitFor("the lab runs to start", () => labRuns().length >= checkpoint.labs.length);
  return { verify, closed };
}

for (const [how, stop] of [
  ["verify 的进程组被 SIGKILL", (pid: number) => process.kill(-pid, "SIGKILL")],
  ["关闭终端（整个进程组收到 SIGHUP）", (pid: number) => process.kill(-pid, "SIGHUP")],
] as const) {
  test(`${how}：verify 启动的聚焦测试进程全部随之结束，没有进程留在练习目录里空转`, linuxOnly, async () => {
    const { verify, closed } = await verifyWithSpinningLabs();
    stop(verify.pid ?? 0);
    await closed;
    await waitFor("no process left in the practice directory", () => processesIn(dir).length === 0, 10_000).catch(() =>
      assert.deepEqual(processesIn(dir), [], "orphans left spinning"),
    );
  });
}

test("父进程在把 run 的 pid 交给看门狗之前就被 SIGKILL：run 带着的标记仍让看门狗结束它", linuxOnly, async () => {
  const watchdogModule = path.join(repoRoot, "packages", "pi-coding-agent", "src", "process", "parent-watchdog.ts");
  // The parent starts the watchdog and the spinning run, then dies before it can call guard().
  const parentScript = `
    import { spawn } from "node:child_process";
    import { startWatchdog } from ${JSON.stringify(watchdogModule)};
    const watchdog = startWatchdog();
    spawn(process.execPath, ["-e", "for (;;) {}"], { cwd: ${JSON.stringify(dir)}, detached: true, stdio: "ignore", env: { ...process.env, ...watchdog.env } });
    process.kill(process.pid, "SIGKILL");
  `;
  const parent = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", parentScript], {
    cwd: repoRoot,
    stdio: "ignore",
  });
  await new Promise<void>((resolve) => parent.on("close", () => resolve()));
  await waitFor("the unguarded run to be killed by its watchdog", () => processesIn(dir).length === 0, 10_000).catch(
    () => assert.deepEqual(processesIn(dir), [], "the run outlived its parent"),
  );
});

test(
  "只有 runner 被 SIGKILL（进程组没有收到信号，看门狗也来不及收尾）：空转的测试进程发现 runner 不在了，自行结束",
  linuxOnly,
  async () => {
    const folder = path.join(dir, "orphaned-runner");
    await mkdir(folder, { recursive: true });
    await writeFile(
      path.join(folder, "spin.test.mjs"),
      'import { test } from "node:test";\ntest("空转", () => { for (;;) {} });\n',
    );
    const trace = startTestTrace(dir, "orphaned-runner");
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const runner = spawn(process.execPath, [...trace.args, "--test", "spin.test.mjs"], {
      cwd: folder,
      detached: true,
      stdio: "ignore",
      env,
    });
    const exited = new Promise<void>((resolve) => runner.on("close", () => resolve()));
    try {
      await waitFor("the test to start spinning", () => trace.lastStarted() === "空转");
      process.kill(runner.pid ?? 0, "SIGKILL");
      await exited;
      await waitFor("the orphaned test process to end itself", () => processesIn(folder).length === 0, 10_000).catch(
        () => assert.deepEqual(processesIn(folder), [], "the test process spun on after its runner died"),
      );
    } finally {
      trace.remove();
    }
  },
);
