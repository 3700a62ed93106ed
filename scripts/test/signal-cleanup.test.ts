// Interrupting `practice`, `checkpoint --write` or the diagnostic (SIGINT, SIGTERM, SIGHUP)
// leaves no temp folder behind; after a SIGKILL, which no handler sees, the next run removes
// what was left. The CLIs run as real child processes and are stopped mid-write.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { repoRoot } from "../lib/course/manifest.js";

const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-signal-cleanup-"));
after(() => rm(holder, { recursive: true, force: true }));

function startCli(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", `scripts/${script}`, ...args], {
    cwd: repoRoot,
    env: { ...env, INIT_CWD: holder },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr })));
}

/**
 * Starts `script args`, and as soon as an entry whose name starts with `prefix` appears in
 * `folder` (the half-made tree), freezes the process, sends it `signal` and lets it go on.
 * `late` says the entry was already gone when the process froze: the watcher reported it after
 * the CLI had renamed or removed it (a loaded machine), so the signal did not land mid-write.
 */
async function interruptWhenStarted(
  script: string,
  args: string[],
  folder: string,
  prefix: string,
  signal: NodeJS.Signals,
  env?: NodeJS.ProcessEnv,
) {
  const watcher = watch(folder);
  const child = startCli(script, args, env);
  const done = exited(child);
  let sent = false;
  let late = false;
  watcher.on("change", (_event, name) => {
    if (sent || !String(name).startsWith(prefix)) return;
    sent = true;
    child.kill("SIGSTOP");
    late = !existsSync(path.join(folder, String(name)));
    child.kill(signal);
    child.kill("SIGCONT");
  });
  const result = await done;
  watcher.close();
  assert.ok(sent, `the half-made tree appeared before the command ended: ${result.stderr}`);
  return { ...result, late };
}

/**
 * Runs `attempt` in a new folder `<name>-1`, `<name>-2`, … under `holder` until its signal lands
 * while the tree is being written, and returns that run with its folder; five late signals in a
 * row fail the test.
 */
async function midWrite<T extends { late: boolean }>(
  name: string,
  attempt: (parent: string) => Promise<T>,
): Promise<T & { parent: string }> {
  for (let n = 1; n <= 5; n += 1) {
    const parent = path.join(holder, `${name}-${n}`);
    await mkdir(parent);
    const run = await attempt(parent);
    if (!run.late) return { ...run, parent };
  }
  assert.fail("the signal never landed while the tree was being written (5 attempts)");
}

/** The course's temp folders in `tmp` (tsx keeps its own cache there too). */
async function courseTemps(tmp: string): Promise<string[]> {
  return (await readdir(tmp)).filter((name) => name.startsWith("pi-course-"));
}

/** `practice 07 <parent>/07`, sent `signal` while its temp sibling is being written. */
function interruptPractice(parent: string, signal: NodeJS.Signals) {
  return interruptWhenStarted("practice.ts", ["07", path.join(parent, "07")], parent, ".07.tmp-", signal);
}

const posixOnly = { skip: process.platform === "win32" };

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  test(`practice 写到一半收到 ${signal}：临时目录被删除，目标不存在，进程以该信号结束`, posixOnly, async () => {
    const { parent, ...result } = await midWrite(`practice-${signal}`, (parent) => interruptPractice(parent, signal));
    assert.equal(result.signal, signal, result.stderr);
    assert.deepEqual(await readdir(parent), [], "no temp folder, no target");
  });
}

test("checkpoint --write target 写到一半收到 SIGINT：什么都不留下", posixOnly, async () => {
  const { parent, ...result } = await midWrite("write-target", (parent) => {
    const args = ["07", "--write", "target", path.join(parent, "target-07")];
    return interruptWhenStarted("checkpoint.ts", args, parent, ".target-07.tmp-", "SIGINT");
  });
  assert.equal(result.signal, "SIGINT", result.stderr);
  assert.deepEqual(await readdir(parent), []);
});

test("practice 被 SIGKILL：临时目录留下；下一次写到同一个上级目录时先把它删掉", posixOnly, async () => {
  const { parent, ...result } = await midWrite("killed", (parent) => interruptPractice(parent, "SIGKILL"));
  assert.equal(result.signal, "SIGKILL");
  const [leftover, ...others] = await readdir(parent);
  assert.match(leftover ?? "", /^\.07\.tmp-pid\d+-/, "a SIGKILL leaves the half-made tree");
  assert.deepEqual(others, []);

  const again = await exited(startCli("practice.ts", ["07", path.join(parent, "07-next")]));
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(await readdir(parent), ["07-next"], "the next run removed the leftover");
});

test(
  "npm run diagnostic 收到 SIGINT：系统临时目录里的临时树被删除；被 SIGKILL 后下一次运行清理",
  posixOnly,
  async () => {
    const tmp = path.join(holder, "system-tmp");
    await mkdir(tmp);
    const env = { ...process.env, TMPDIR: tmp };
    const result = await interruptWhenStarted(
      "checkpoint.ts",
      ["07", "--diagnostic"],
      tmp,
      "pi-course-",
      "SIGINT",
      env,
    );
    assert.equal(result.signal, "SIGINT", result.stderr);
    assert.deepEqual(await courseTemps(tmp), [], "no temp tree left in the system temp folder");

    const killed = await interruptWhenStarted(
      "checkpoint.ts",
      ["07", "--diagnostic"],
      tmp,
      "pi-course-",
      "SIGKILL",
      env,
    );
    assert.equal(killed.signal, "SIGKILL");
    const [leftover] = await courseTemps(tmp);
    assert.match(leftover ?? "", /^pi-course-target-07-pid\d+-/);
    // The next diagnostic removes it before it makes its own temp tree; stop it once that tree appears.
    await interruptWhenStarted("checkpoint.ts", ["07", "--diagnostic"], tmp, "pi-course-", "SIGTERM", env);
    await assert.rejects(stat(path.join(tmp, leftover ?? "")), { code: "ENOENT" });
    assert.deepEqual(await courseTemps(tmp), []);
  },
);
