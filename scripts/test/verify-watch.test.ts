import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { mock, test } from "node:test";
import { debouncedRunner, isIgnoredPath, watchTree } from "../lib/verify-watch.js";

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
    "pi-course/dist/src/agent-loop.js",
    "pi-core/node_modules/ajv/index.js",
    "pi-course/tsconfig.tsbuildinfo",
    "pi-course/src/.agent-loop.ts.swp",
    "pi-course/src/agent-loop.ts~",
  ]) {
    assert.equal(isIgnoredPath(ignored), true, ignored);
  }
  for (const watched of [
    "pi-course/src/agent-loop.ts",
    "pi-course/test/07-agent-loop.test.ts",
    "pi-core/package.json",
  ]) {
    assert.equal(isIgnoredPath(watched), false, watched);
  }
});

test("verify --watch 在 Linux 上逐个目录监视：已有目录和之后新建的目录里的改动都会报告", {
  timeout: 20_000,
}, async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), "pi-course-watch-"));
  const changes: { wait: ((relative: string) => void) | undefined } = { wait: undefined };
  await mkdir(path.join(root, "pi-course", "src"), { recursive: true });
  const watcher = watchTree(root, (relative) => changes.wait?.(relative));
  try {
    const edited = path.join("pi-course", "src", "agent-loop.ts");
    const sawEdit = nextChange(changes, (relative) => relative === edited);
    await writeFile(path.join(root, edited), "export {};\n");
    assert.equal(await sawEdit, edited, "已有子目录中的改动");

    const newFolder = path.join("pi-course", "test");
    const sawFolder = nextChange(changes, (relative) => relative === newFolder);
    await mkdir(path.join(root, newFolder));
    await sawFolder;
    const added = path.join(newFolder, "extra.test.ts");
    const sawAdded = nextChange(changes, (relative) => relative === added);
    await writeFile(path.join(root, added), "export {};\n");
    assert.equal(await sawAdded, added, "新建目录中的文件也被监视");
  } finally {
    watcher.close();
    await rm(root, { recursive: true, force: true });
  }
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
