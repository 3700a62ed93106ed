// --loop and --tools-from take one chapter's built code from a practice directory (the rows 07 and
// 08 of learner-code.ts), and only when it is built from its current sources and passes its
// focused tests. The tree is written by the course machinery (checkpoint --write target) and
// built as the chapter says.
import assert from "node:assert/strict";
import { appendFile, copyFile, readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { build, manifest, withTempDir, writeTarget } from "../cli-support/practice-tree.js";
import { isOneLine, repoRoot, runCli, withWorkspace } from "../cli-support/run-cli.js";

const checkpointOf = (name: string) => manifest.checkpoints.find((checkpoint) => checkpoint.package === name);

const MARKER = "learner loop loaded";

test("tiny-pi --loop：未构建、构建过期、聚焦测试不通过都拒绝（一行，退出码 1）；通过时用练习目录里自己的 runAgentLoop 走完 README 往返，开头一行说出 loop 与工具", async () => {
  const loop = checkpointOf("@pi/course");
  assert.ok(loop !== undefined);
  const packageDir = loop.focusedRun.split("/").slice(0, 2).join("/");
  const teaching = `${packageDir}/src/agent-loop.ts`;
  await withTempDir(async (dir) => {
    const tree = path.join(dir, "practice-07");
    writeTarget(loop.id, tree);
    // The learner's loop says it was loaded: the run below must be theirs, not the course's.
    await appendFile(path.join(tree, teaching), `\nprocess.stderr.write(${JSON.stringify(`${MARKER}\n`)});\n`);

    await withWorkspace(async (workspace) => {
      const run = () => runCli(["--loop", tree, "--no-session"], workspace);

      const unbuilt = await run();
      assert.equal(unbuilt.code, 1);
      assert.ok(isOneLine(unbuilt.stderr), unbuilt.stderr);
      assert.match(unbuilt.stderr, /practice-07 还没有构建：请在其中运行 npm run build -w @pi\/course。/);
      assert.equal(unbuilt.stdout, "");

      build(tree, packageDir);
      const passing = await run();
      assert.equal(passing.code, 0, passing.stderr);
      assert.match(passing.stderr, new RegExp(MARKER), "运行的是练习目录里的 loop");
      assert.match(
        passing.stderr,
        /^loop（07）：.*practice-07 里你的 runAgentLoop · 工具（08）：课程的 read · 会话（10）：课程的 JsonlSessionStore · 压缩（11）：课程的 buildContext · 资源（12）：课程的 discoverResources · Runtime（13）：课程的 openRuntime$/m,
        "开头一行说出 loop 与工具",
      );
      assert.ok(passing.stdout.includes("项目名是 tiny-pi。"), passing.stdout);

      // A save that changes nothing (tsc -b then leaves dist alone) is not a stale build.
      const saved = await readFile(path.join(tree, teaching), "utf8");
      const later = new Date(Date.now() + 60_000);
      await utimes(path.join(tree, teaching), later, later);
      const touched = await run();
      assert.equal(touched.code, 0, touched.stderr);

      await writeFile(path.join(tree, teaching), `${saved}\n// edited, not built\n`);
      const stale = await run();
      assert.equal(stale.code, 1);
      assert.ok(isOneLine(stale.stderr), stale.stderr);
      assert.match(
        stale.stderr,
        /构建已过期（src\/agent-loop\.ts 和上一次成功的构建不一样）：请在其中运行 npm run build -w @pi\/course。/,
      );
      await writeFile(path.join(tree, teaching), saved);
      const undone = await run();
      assert.equal(undone.code, 0, `撤销改动后不必重新构建：${undone.stderr}`);

      const starter = loop.starters[teaching];
      assert.ok(starter !== undefined);
      await copyFile(path.join(repoRoot, starter), path.join(tree, teaching));
      build(tree, packageDir);
      const failing = await run();
      assert.equal(failing.code, 1);
      assert.match(
        failing.stderr,
        /第 07 章的聚焦测试没有全部通过（通过 0\/9）：先完成 Lab，进度与提示见 npm run verify -w @pi\/course -- 07 /,
      );
      assert.equal(failing.stdout, "", "拒绝时不运行任何一轮");
    });
  });
});

test("tiny-pi --loop 指向不是练习目录的地方：一行说明给出练习目录，退出码 1", async () => {
  await withWorkspace(async (workspace) => {
    const result = await runCli(["--loop", ".", "--no-session"], workspace);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^\. 里没有 @pi\/course：请给出第 07 章的练习目录（npm run practice -w @pi\/course -- 07 创建）。$/m,
    );
    const missing = await runCli(["--loop", "nowhere"], workspace);
    assert.match(missing.stderr, /^--loop nowhere 不是目录：请给出练习目录，例如 --loop practice\/07。$/m);
  });
});

test("tiny-pi --tools-from 指向没有第 08 章包的目录：一行说明，给出的 practice 命令走 @pi/course（课程脚本所在的包）", async () => {
  await withWorkspace(async (workspace) => {
    const result = await runCli(["--tools-from", ".", "--no-session"], workspace);
    assert.equal(result.code, 1);
    assert.ok(isOneLine(result.stderr), result.stderr);
    assert.match(
      result.stderr,
      /^\. 里没有 @pi\/coding-agent：请给出第 08 章的练习目录（npm run practice -w @pi\/course -- 08 创建）。$/m,
    );
  });
});

test("tiny-pi --tools-from：用练习目录里自己的工具（开头一行说出）", async () => {
  const tools = checkpointOf("@pi/coding-agent");
  assert.ok(tools !== undefined);
  await withWorkspace(async (workspace) => {
    await withTempDir(async (dir) => {
      const packageDir = tools.focusedRun.split("/").slice(0, 2).join("/");
      const tree = path.join(dir, `practice-${tools.id}`);
      writeTarget(tools.id, tree);
      build(tree, packageDir);
      const result = await runCli(["--tools-from", tree, "--no-session"], workspace);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(result.stdout.includes("项目名是 tiny-pi。"), result.stdout);
      assert.match(
        result.stderr,
        new RegExp(
          `^loop（07）：课程的 runAgentLoop · 工具（08）：.*practice-${tools.id} 里你的 read · 会话（10）：`,
          "m",
        ),
      );
    });
  });
});
