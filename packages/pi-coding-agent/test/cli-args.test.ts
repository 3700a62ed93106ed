// tiny-pi's flags, parsed in process: what each one means, and the one line each mistake gives.
// (cli-usage.test.ts checks the same lines end a real child with exit 2.)
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { type CliArgs, parseCliArgs } from "../src/cli/args.js";

const from = path.resolve("/home/learner/pi-course");

function usageError(args: string[], message: RegExp): void {
  assert.throws(() => parseCliArgs(args, from), { name: "UsageError", message }, args.join(" "));
}

test("tiny-pi 参数：默认工作区是运行 npm 的目录、只有 read、记录新会话；相对路径从那个目录算起；prompt 的词用空格连起来", () => {
  assert.deepEqual(parseCliArgs([], from), {
    workspace: from,
    tools: ["read"],
    mode: "text",
    session: { kind: "new" },
  });
  const args = parseCliArgs(
    [
      "--base-url",
      "http://localhost:11434/v1",
      "--model",
      "qwen2.5-coder:7b",
      "--workspace",
      "demo",
      "--tools",
      "read,bash,read",
      "--loop",
      "practice/07",
      "--tools-from",
      "../p08",
      "--max-steps",
      "8",
      "--json",
      "--resume",
      ".tiny-pi/sessions/a.jsonl",
      "读一下",
      "README.md",
    ],
    from,
  );
  assert.deepEqual(args, {
    endpoint: { baseURL: "http://localhost:11434/v1", model: "qwen2.5-coder:7b" },
    workspace: path.join(from, "demo"),
    tools: ["read", "bash"],
    loopDir: path.join(from, "practice/07"),
    toolsFromDir: path.resolve(from, "../p08"),
    maxSteps: 8,
    mode: "json",
    session: { kind: "resume", file: path.join(from, ".tiny-pi/sessions/a.jsonl") },
    prompt: "读一下 README.md",
  });
  assert.deepEqual(
    parseCliArgs(["--no-session", "--api-key", "k", "--base-url", "https://x/v1", "--model", "m"], from),
    {
      endpoint: { baseURL: "https://x/v1", model: "m", apiKey: "k" },
      workspace: from,
      tools: ["read"],
      mode: "text",
      session: { kind: "none" },
    },
  );
  assert.equal(parseCliArgs(["-h"], from), "help");
  assert.equal((parseCliArgs(["--from", "practice/10"], from) as CliArgs).fromDir, path.join(from, "practice/10"));
});

test("tiny-pi 第 12 章的参数：--no-context-files、--trust-extensions、--yes（-y）、--protected-paths 与 resources 命令", () => {
  assert.deepEqual(
    parseCliArgs(
      ["--no-context-files", "--trust-extensions", "-y", "--protected-paths", ".git,./dist/, docs/api", "hi"],
      from,
    ),
    {
      workspace: from,
      tools: ["read"],
      mode: "text",
      session: { kind: "new" },
      noContextFiles: true,
      trustExtensions: true,
      yes: true,
      protectedPaths: [".git/", "dist/", "docs/api/"],
      prompt: "hi",
    },
  );
  assert.deepEqual((parseCliArgs(["--protected-paths", ""], from) as CliArgs).protectedPaths, [], '"" 表示不保护');
  assert.deepEqual((parseCliArgs(["resources"], from) as CliArgs).command, { kind: "resources" });
  assert.equal((parseCliArgs(["resources", "please"], from) as CliArgs).prompt, "resources please", "多个词是 prompt");
  usageError(["--protected-paths", "../up"], /^--protected-paths 里有"\.\.\/up"：请写工作区里的相对路径/);
  usageError(["--protected-paths", "/etc"], /^--protected-paths 里有"\/etc"/);
  usageError(["--protected-paths", ".git,,x"], /^--protected-paths 里有""/);
});

test("tiny-pi 参数有误：每种错误一行，说明怎么改", () => {
  usageError(["--bogus"], /^未知选项 --bogus：请删掉它，或换成 --help 列出的选项。用法：tiny-pi /);
  usageError(["--model"], /^选项 --model 缺少取值：请在 --model 后面写上取值/);
  usageError(["--json=yes"], /^选项 --json 不接受取值：请只写 --json/);
  usageError(["--max-steps", "0"], /^--max-steps 要一个 ≥ 1 的整数（收到 "0"），例如 --max-steps 8。$/);
  usageError(["--max-steps", "2.5"], /^--max-steps 要一个 ≥ 1 的整数/);
  usageError(["--max-steps", "lots"], /^--max-steps 要一个 ≥ 1 的整数/);
  usageError(["--tools", "read,rm"], /^--tools 里有"rm"：请从 read,write,edit,bash,code 中选/);
  usageError(["--tools", "read,"], /^--tools 里有空名字/);
  usageError(["--workspace", " "], /^--workspace 的取值为空/);
  usageError(["--no-session", "--resume", "x.jsonl"], /^--no-session 和 --resume 不能同时使用/);
  usageError(["--from", "p10", "--loop", "p07"], /^--from 和 --loop 不能同时使用：.*去掉 --loop。$/);
  usageError(["--tools-from", "p08", "--from", "p10"], /^--from 和 --tools-from 不能同时使用/);
  usageError(["--from", ""], /^--from 的取值为空：例如 --from practice\/10。$/);
});

test("tiny-pi 模型参数不完整：缺模型名、--api-key 没有 --base-url、URL 写错", () => {
  usageError(["--base-url", "http://127.0.0.1:9/v1", "hi"], /^缺少 --model：.*--model qwen2\.5-coder:7b/);
  usageError(["--api-key", "sk-x", "hi"], /^--api-key 需要 --base-url/);
  usageError(["--base-url", "localhost:11434", "--model", "m"], /只接受 http:\/\/ 或 https:\/\//);
  usageError(["--base-url", "not a url", "--model", "m"], /^--base-url "not a url" 不是 URL/);
  usageError(["--base-url", "http://x/v1", "--model", ""], /^--model 的取值为空/);
  usageError(["--api-key", ""], /^--api-key 的取值为空：请写上密钥，或者去掉 --api-key 改设 OPENAI_API_KEY。$/);
});

test("tiny-pi 第 13 章的输出模式：默认 text；--mode json 与旧的 --json 同义；--mode print 与 -p / --print 只打印最终回答；未知模式与互相矛盾的写法各一行", () => {
  const modeOf = (args: string[]) => (parseCliArgs(args, from) as CliArgs).mode;
  assert.equal(modeOf(["hi"]), "text");
  assert.equal(modeOf(["--mode", "text", "hi"]), "text");
  assert.equal(modeOf(["--mode", "json", "hi"]), "json");
  assert.equal(modeOf(["--json", "hi"]), "json", "--json 是 --mode json 的别名");
  assert.equal(modeOf(["--json", "--mode", "json", "hi"]), "json");
  assert.equal(modeOf(["-p", "hi"]), "print");
  assert.equal(modeOf(["--print", "hi"]), "print");
  assert.equal(modeOf(["--mode", "print", "hi"]), "print", "--mode print 是第 13 章 print 模式的名字，同 -p");
  assert.equal(modeOf(["-p", "--mode", "print", "hi"]), "print");
  usageError(
    ["--mode", "xml", "hi"],
    /^--mode 只接受 text、print 或 json（收到 "xml"）：例如 --mode json；只要最终回答用 --mode print（-p）。$/,
  );
  usageError(["--mode", "", "hi"], /^--mode 的取值为空/);
  usageError(["--json", "--mode", "text", "hi"], /^--json 和 --mode text 不能同时使用/);
  usageError(["-p", "--mode", "json", "hi"], /^-p（--print）和 --mode json 不能同时使用/);
  usageError(["-p", "--json", "hi"], /^-p（--print）和 --mode json 不能同时使用/);
  usageError(["--json", "--mode", "print", "hi"], /^--json 和 --mode print 不能同时使用/);
  usageError(["-p", "--mode", "text", "hi"], /^-p（--print）和 --mode text 不能同时使用/);
});
