// How tiny-pi is called: each mistake is one line naming the fix, exit 2, no stack, nothing
// written; --help lists every flag the parser accepts.
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

test("tiny-pi 参数有误：未知选项、缺取值、--max-steps 不是正整数、未知工具，各一行说明怎么改，退出码 2", async () => {
  await expectUsageError(["--bogus"], /未知选项 --bogus：请删掉它/);
  await expectUsageError(["--model"], /选项 --model 缺少取值/);
  await expectUsageError(["--json=yes"], /选项 --json 不接受取值/);
  await expectUsageError(["--max-steps", "0"], /--max-steps 要一个 ≥ 1 的整数（收到 "0"）/);
  await expectUsageError(["--max-steps", "2.5"], /--max-steps 要一个 ≥ 1 的整数/);
  await expectUsageError(["--tools", "read,rm"], /--tools 里有"rm"：请从 read,write,edit,bash 中选/);
  await expectUsageError(["--tools", ""], /--tools 里有空名字/);
});

test("tiny-pi 模型参数不完整：缺模型名、--model 没有 --base-url、URL 写错，各一行，退出码 2", async () => {
  await expectUsageError(["--base-url", "http://127.0.0.1:9/v1", "hi"], /缺少 --model：.*--model qwen2\.5-coder/);
  await expectUsageError(["--model", "gpt-4o-mini", "hi"], /--model 需要 --base-url/);
  await expectUsageError(["--base-url", "localhost:11434", "--model", "m", "hi"], /只接受 http:\/\/ 或 https:\/\//);
  await expectUsageError(["--base-url", "not a url", "--model", "m", "hi"], /不是 URL/);
});

test("tiny-pi 工作区与会话参数有误：目录不存在、--resume 文件不存在、--no-session 与 --resume 同用，退出码 2", async () => {
  await expectUsageError(["--workspace", "no-such-dir"], /工作区 .*no-such-dir 不存在：请用 --workspace/);
  await expectUsageError(["--workspace", "README.md"], /不是目录/);
  await expectUsageError(["--resume", "gone.jsonl"], /会话文件 .*gone\.jsonl 不存在/);
  await expectUsageError(["--resume", "README.md"], /第 1 行不是一条消息/);
  await expectUsageError(["--no-session", "--resume", "x.jsonl"], /不能同时使用/);
});

test("tiny-pi 用真实模型却不在终端里、也没给 prompt：一行说明把问题写在最后，退出码 2", async () => {
  await expectUsageError(["--base-url", "http://127.0.0.1:9/v1", "--model", "m"], /缺少 prompt/);
});

test("tiny-pi --help：退出码 0，列出解析器接受的每一个选项", async () => {
  await withWorkspace(async (workspace) => {
    const result = await runCli(["--help"], workspace);
    assert.equal(result.code, 0);
    for (const [name, option] of Object.entries(cliOptions)) {
      const short = "short" in option ? `-${option.short}, ` : "";
      assert.match(result.stdout, new RegExp(`^ {2}${short}--${name}\\b`, "m"), `--help 缺少 --${name}`);
    }
    assert.ok(result.stdout.startsWith(`用法：${usage}`));
  });
});
