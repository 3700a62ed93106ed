import assert from "node:assert/strict";
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { mock, test } from "node:test";
import { findCheckpoint } from "../lib/course/manifest.js";
import { writeCheckpointTree } from "../lib/trees/trees.js";
import { debouncedRunner, isIgnoredPath, watchTree } from "../lib/verify/verify-watch.js";
import { HANG_GUARD_MS } from "./support/hang-guard.js";

/**
 * Writes `relative` under `root` until the watcher reports it: a watcher that has just attached to a
 * replaced or re-created folder can miss a write that comes first, on a loaded machine. The test's
 * own timeout still fails a watcher that never reports it.
 */
async function writeUntilSeen(
  changes: { wait: ((relative: string) => void) | undefined },
  root: string,
  relative: string,
  content: string,
): Promise<string> {
  const seen = nextChange(changes, (changed) => changed === relative);
  let reported = false;
  void seen.then(() => {
    reported = true;
  });
  while (!reported) {
    await writeFile(path.join(root, relative), content);
    await Promise.race([seen, new Promise((resolve) => setTimeout(resolve, 250))]);
  }
  return seen;
}

/** Resolves with the first reported change that satisfies `wanted`. */
function nextChange(
  changes: { wait: ((relative: string) => void) | undefined },
  wanted: (relative: string) => boolean,
) {
  return new Promise<string>((resolve) => {
    changes.wait = (relative) => {
      if (!wanted(relative)) return;
      changes.wait = undefined;
      resolve(relative);
    };
  });
}

test("verify --watch 忽略构建输出、依赖与编辑器临时文件，只关心学习者的源码", () => {
  for (const ignored of [
    "packages/pi-course/dist/src/agent-loop.js",
    "node_modules/typescript/lib/tsc.js",
    "node_modules",
    "packages/pi-core/node_modules/ajv/index.js",
    "packages/pi-course/tsconfig.tsbuildinfo",
    "packages/pi-course/src/.agent-loop.ts.swp",
    "packages/pi-course/src/agent-loop.ts~",
  ]) {
    assert.equal(isIgnoredPath(ignored), true, ignored);
  }
  for (const watched of [
    "packages/pi-course/src/agent-loop.ts",
    "packages/pi-course/test/07-agent-loop.test.ts",
    "packages/pi-core/package.json",
    "tsconfig.base.json",
    "package.json",
  ]) {
    assert.equal(isIgnoredPath(watched), false, watched);
  }
});

test("verify --watch 监视整个练习目录：根目录、已有目录和之后新建的目录里的改动都会报告，不进入 node_modules 与链接", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-watch-"));
  const root = path.join(holder, "practice-07");
  await writeCheckpointTree(findCheckpoint("07"), "practice", root);
  // A link to a folder outside the tree, as a learner might add: followed, it would watch elsewhere.
  await mkdir(path.join(holder, "elsewhere"));
  await symlink(path.join(holder, "elsewhere"), path.join(root, "linked"), "junction");
  const changes: { wait: ((relative: string) => void) | undefined } = { wait: undefined };
  const watcher = watchTree(root, (relative) => changes.wait?.(relative));
  try {
    await watcher.ready;
    const folders = watcher.folders();
    assert.ok(folders.includes(""), "练习目录本身");
    assert.ok(folders.includes(path.join("packages", "pi-course", "src")), "教学文件所在目录");
    assert.deepEqual(
      folders.filter((folder) => folder.split(path.sep).some((part) => part === "node_modules" || part === "linked")),
      [],
      "node_modules 与指向别处的链接里没有监视器",
    );

    const rootFile = "tsconfig.base.json";
    const sawRoot = nextChange(changes, (relative) => relative === rootFile);
    await writeFile(path.join(root, rootFile), "{}\n");
    assert.equal(await sawRoot, rootFile, "练习目录根上的文件");

    const edited = path.join("packages", "pi-course", "src", "agent-loop.ts");
    const sawEdit = nextChange(changes, (relative) => relative === edited);
    await writeFile(path.join(root, edited), "export {};\n");
    assert.equal(await sawEdit, edited, "已有子目录中的改动");

    const newFolder = path.join("packages", "pi-course", "extra");
    const sawFolder = nextChange(changes, (relative) => relative === newFolder);
    await mkdir(path.join(root, newFolder));
    await sawFolder;
    const added = path.join(newFolder, "extra.test.ts");
    assert.equal(await writeUntilSeen(changes, root, added, "export {};\n"), added, "新建目录中的文件也被监视");
  } finally {
    await watcher.close();
    await rm(holder, { recursive: true, force: true });
  }
});

test("verify --watch 在 src 目录被整个替换（编辑器、git checkout）之后仍然报告其中的改动", {
  timeout: HANG_GUARD_MS,
}, async () => {
  const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-watch-"));
  const root = path.join(holder, "practice-07");
  await writeCheckpointTree(findCheckpoint("07"), "practice", root);
  const src = path.join(root, "packages", "pi-course", "src");
  const changes: { wait: ((relative: string) => void) | undefined } = { wait: undefined };
  const watcher = watchTree(root, (relative) => changes.wait?.(relative));
  try {
    await watcher.ready;
    const replacement = path.join(holder, "src-new");
    await mkdir(replacement);
    await writeFile(path.join(replacement, "agent-loop.ts"), "export {};\n");
    const sawReplace = nextChange(changes, (relative) =>
      relative.startsWith(path.join("packages", "pi-course", "src")),
    );
    await rm(src, { recursive: true });
    await rename(replacement, src);
    await sawReplace;
    const edited = path.join("packages", "pi-course", "src", "agent-loop.ts");
    assert.equal(
      await writeUntilSeen(changes, root, edited, "export const edited = 1;\n"),
      edited,
      "替换之后的 src 里的改动",
    );
  } finally {
    await watcher.close();
    await rm(holder, { recursive: true, force: true });
  }
});

test("verify --watch 练习目录被删除后报告一次，重新出现后继续监视其中的改动", { timeout: HANG_GUARD_MS }, async () => {
  const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-watch-"));
  const root = path.join(holder, "practice-07");
  await writeCheckpointTree(findCheckpoint("07"), "practice", root);
  const changes: { wait: ((relative: string) => void) | undefined } = { wait: undefined };
  const watcher = watchTree(root, (relative) => changes.wait?.(relative));
  try {
    await watcher.ready;
    const sawGone = nextChange(changes, (relative) => relative === "");
    await rm(root, { recursive: true, force: true });
    await sawGone;
    const sawBack = nextChange(changes, (relative) => relative === "");
    await writeCheckpointTree(findCheckpoint("07"), "practice", root);
    await sawBack;
    await watcher.ready;
    const edited = path.join("packages", "pi-course", "src", "agent-loop.ts");
    assert.equal(await writeUntilSeen(changes, root, edited, "export {};\n"), edited, "重新创建的练习目录里的改动");
  } finally {
    await watcher.close();
    await rm(holder, { recursive: true, force: true });
  }
});

test("verify --watch 运行中保存：正在进行的运行收到取消信号，结束后恰好再运行一次", async () => {
  const signals: AbortSignal[] = [];
  let release: () => void = () => {};
  let runs = 0;
  const runner = debouncedRunner(async (signal) => {
    runs += 1;
    signals.push(signal);
    if (runs === 1) {
      await new Promise<void>((resolve) => {
        release = resolve;
        signal.addEventListener("abort", () => resolve());
      });
    }
  }, 10);
  runner.trigger();
  while (signals.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  runner.trigger();
  while (signals.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  release();
  assert.equal(signals[0]?.aborted, true, "第一次运行被取消，而不是等到它自己结束");
  assert.equal(signals[1]?.aborted, false, "新的运行没有被取消");
  assert.equal(runs, 2);
  runner.cancel();
});

test("verify --watch 防抖：一串改动只触发一次；运行中的改动在结束后再触发恰好一次", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    let runs = 0;
    let finishRun: () => void = () => {};
    let started: () => void = () => {};
    const runStarted = () =>
      new Promise<void>((resolve) => {
        started = resolve;
      });
    const runner = debouncedRunner(async () => {
      runs += 1;
      started();
      await new Promise<void>((resolve) => {
        finishRun = resolve;
      });
    }, 200);

    let first = runStarted();
    runner.trigger();
    runner.trigger();
    mock.timers.tick(199);
    runner.trigger();
    mock.timers.tick(199);
    assert.equal(runs, 0, "最后一次改动后 200ms 内不运行");
    mock.timers.tick(1);
    await first;
    assert.equal(runs, 1, "一串改动只运行一次");

    runner.trigger();
    runner.trigger();
    mock.timers.tick(200);
    assert.equal(runs, 1, "运行中不会并行再跑");
    first = runStarted();
    finishRun();
    await new Promise<void>((resolve) => setImmediate(resolve));
    mock.timers.tick(200);
    await first;
    assert.equal(runs, 2, "运行中的改动在结束后触发恰好一次");
    finishRun();
    await new Promise<void>((resolve) => setImmediate(resolve));
    mock.timers.tick(1_000);
    assert.equal(runs, 2, "之后没有多余的运行");
    runner.cancel();
  } finally {
    mock.timers.reset();
  }
});
