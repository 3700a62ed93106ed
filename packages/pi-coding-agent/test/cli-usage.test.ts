// A mistake in how tiny-pi is called ends a real child with one line naming the fix, exit 2,
// empty stdout and nothing written; --help lists every flag the parser accepts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cliOptions, usage } from "../src/cli/args.js";
import { isOneLine, runCli, sessionFiles, withWorkspace } from "./cli-support/run-cli.js";

async function expectUsageError(args: string[], fix: RegExp): Promise<void> {
  await withWorkspace(async (workspace) => {
    const result = await runCli(args, workspace);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.equal(result.stdout, "", "出错时标准输出为空");
    assert.ok(isOneLine(result.stderr), `只有一行：${result.stderr}`);
    assert.match(result.stderr, fix);
    assert.deepEqual(await sessionFiles(workspace), [], "什么也没写");
  });
}

test("tiny-pi 参数有误（子进程）：未知选项、缺模型名、工作区不存在，各一行，退出码 2，什么也不写", async () => {
  await expectUsageError(["--bogus"], /^未知选项 --bogus：请删掉它/);
  await expectUsageError(["--base-url", "http://127.0.0.1:9/v1", "hi"], /^缺少 --model：/);
  await expectUsageError(["--workspace", "no-such-dir"], /^工作区 .*no-such-dir 不存在：请用 --workspace/);
});

test("tiny-pi 用真实模型却不在终端里、也没给 prompt：一行说明把问题写在最后，退出码 2", async () => {
  await expectUsageError(["--base-url", "http://127.0.0.1:9/v1", "--model", "m"], /^缺少 prompt/);
});

test("tiny-pi -p 用真实模型却没给 prompt：一行说明 -p 只跑一轮、把问题写在最后，退出码 2", async () => {
  await expectUsageError(
    ["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "-p"],
    /^-p 只跑一轮、只打印最终回答：请把问题写在最后/,
  );
});

test("tiny-pi --help：退出码 0，列出解析器接受的每一个选项", async () => {
  await withWorkspace(async (workspace) => {
    const result = await runCli(["--help"], workspace);
    assert.equal(result.code, 0);
    assert.ok(result.stdout.startsWith(`用法：${usage}`));
    for (const [name, option] of Object.entries(cliOptions)) {
      const short = "short" in option ? `-${option.short}, ` : "";
      assert.match(result.stdout, new RegExp(`^ {2}${short}--${name}\\b`, "m"), `--help 缺少 --${name}`);
    }
  });
});
