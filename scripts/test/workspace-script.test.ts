// The card's build command runs the compiler directly only where npm would run exactly `tsc -b`
// with the tree's own TypeScript; every other script still goes through npm as written.
import assert from "node:assert/strict";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../lib/course/manifest.js";
import { npmBuild } from "../lib/run/focused-run.js";
import { directCompilerRun } from "../lib/run/workspace-script.js";
import { withTempDir } from "../lib/trees/temp-dir.js";

/** A two-package tree whose `@pi/demo` has the build script `script`, with or without TypeScript linked in. */
async function tree(dir: string, script: string, { typescript = true } = {}) {
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ workspaces: ["packages/other", "packages/demo"] }));
  for (const [folder, name] of [
    ["other", "@pi/other"],
    ["demo", "@pi/demo"],
  ] as const) {
    await mkdir(path.join(dir, "packages", folder, "src"), { recursive: true });
    await writeFile(
      path.join(dir, "packages", folder, "package.json"),
      JSON.stringify({ name, scripts: { build: folder === "demo" ? script : "tsc -b" } }),
    );
  }
  const demo = path.join(dir, "packages", "demo");
  await writeFile(
    path.join(demo, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { outDir: "dist", rootDir: "src", composite: true, strict: true },
      include: ["src"],
    }),
  );
  await writeFile(path.join(demo, "src", "a.ts"), "export const a: number = 1;\n");
  if (typescript) {
    await mkdir(path.join(dir, "node_modules"), { recursive: true });
    await symlink(
      path.join(repoRoot, "node_modules", "typescript"),
      path.join(dir, "node_modules", "typescript"),
      "junction",
    );
  }
  return demo;
}

test("构建命令：脚本恰好是 tsc -b 时直接在那个工作区包里运行树自己的编译器，-- 之后的参数照样传给它", async () => {
  await withTempDir("pi-course-script-", async (dir) => {
    const demo = await tree(dir, "tsc -b");
    const run = await directCompilerRun(dir, ["run", "build", "-w", "@pi/demo", "--", "--force"]);
    assert.ok(run, "tsc -b 直接运行");
    assert.equal(run.cwd, demo, "在 npm 会运行脚本的包目录里");
    assert.deepEqual(run.args, ["-b", "--force"]);
    assert.match(
      run.tsc.split(path.sep).join("/"),
      /node_modules\/typescript\/bin\/tsc$/,
      "树里链接的 typescript 的 tsc",
    );
    const built = await npmBuild(dir, ["run", "build", "-w", "@pi/demo"]);
    assert.deepEqual([built.ok, built.output.includes("> "), built.errors], [true, false, []], "没有经过 npm");
    await writeFile(path.join(demo, "src", "a.ts"), 'export const a: number = "x";\n');
    const failed = await npmBuild(dir, ["run", "build", "-w", "@pi/demo"]);
    assert.equal(failed.ok, false);
    assert.match(failed.firstError ?? "", /^src\/a\.ts\(1,14\): error TS2322/, "编译错误照样是第一条错误");
  });
});

test("构建命令：别的脚本、没有自己的 TypeScript 的树、不存在的包都照卡片经 npm 运行", async () => {
  await withTempDir("pi-course-script-", async (dir) => {
    await tree(dir, "tsc -b && echo built");
    assert.equal(await directCompilerRun(dir, ["run", "build", "-w", "@pi/demo"]), undefined, "脚本不只是 tsc -b");
    assert.equal(await directCompilerRun(dir, ["run", "build", "-w", "@pi/none"]), undefined, "没有这个工作区包");
    assert.equal(await directCompilerRun(dir, ["run", "build", "-w", "@pi/demo", "x"]), undefined, "多余的参数");
    assert.equal(await directCompilerRun(dir, ["install"]), undefined, "不是 npm run");
    const viaNpm = await npmBuild(dir, ["run", "build", "-w", "@pi/demo"]);
    assert.ok(viaNpm.output.includes("> tsc -b && echo built"), "npm 打印它运行的脚本");
  });
  await withTempDir("pi-course-script-", async (dir) => {
    await tree(dir, "tsc -b", { typescript: false });
    assert.equal(
      await directCompilerRun(dir, ["run", "build", "-w", "@pi/demo"]),
      undefined,
      "没有 typescript 时交给 npm 去说",
    );
  });
});
