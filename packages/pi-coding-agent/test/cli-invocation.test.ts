// tiny-pi's command line as one typed value, in process: a run's configuration (models, workspace,
// tools, session, window, trust, gate) with every default filled in one place, each command with
// only what it reads, and the refusals that need the whole command line.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { parseInvocation } from "../src/cli/invocation.js";

function withFolder(body: (dir: string) => void): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tiny-pi-invocation-"));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("tiny-pi 的一次运行解析成一个配置：模型、工作区、工具、会话、窗口、信任与权限门，默认值都填好", () => {
  withFolder((dir) => {
    const env = { TINY_PI_HOME: path.join(dir, "home") };
    assert.deepEqual(parseInvocation([], dir, env, false), {
      kind: "run",
      config: {
        workspace: dir,
        home: path.join(dir, "home"),
        models: {},
        tools: ["read"],
        window: {},
        session: { kind: "new" },
        contextFiles: true,
        trustExtensions: false,
        trustMcp: false,
        gate: { yes: false, protectedPaths: [".git/", ".tiny-pi/", "node_modules/"] },
      },
      learner: {},
      mode: "text",
      interactive: false,
    });
    const argv = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--tools", "read,code", "--from", "p"];
    const more = [
      "--context-window",
      "4096",
      "--yes",
      "--trust-mcp",
      "--no-session",
      "--defer-tools",
      "none",
      "-p",
      "hi",
    ];
    const run = parseInvocation([...argv, ...more], dir, env, false);
    assert.equal(run.kind, "run");
    if (run.kind !== "run") return;
    assert.deepEqual(run.config.models, { endpoint: { baseURL: "http://127.0.0.1:9/v1", model: "m" } });
    assert.deepEqual(run.config.tools, ["read", "code"]);
    assert.deepEqual(run.config.window, { contextWindow: 4096 });
    assert.deepEqual(run.config.session, { kind: "none" });
    assert.equal(run.config.gate.yes, true, "--yes 进了权限门的配置");
    assert.equal(run.config.trustMcp, true);
    assert.equal(run.config.defer, "none");
    assert.deepEqual(run.learner, { fromDir: path.join(dir, "p") }, "练习目录从运行命令的目录算起");
    assert.deepEqual([run.mode, run.prompt, run.interactive], ["print", "hi", false]);
  });
});

test("tiny-pi 的命令各自只带它读的：resources、mcp、tree、sessions；-h 是 help", () => {
  withFolder((dir) => {
    const env = { TINY_PI_HOME: path.join(dir, "home") };
    const home = path.join(dir, "home");
    assert.deepEqual(parseInvocation(["-h"], dir, env, false), { kind: "help" });
    assert.deepEqual(parseInvocation(["resources", "--no-context-files"], dir, env, false), {
      kind: "resources",
      workspace: dir,
      home,
      contextFiles: false,
    });
    assert.deepEqual(parseInvocation(["mcp", "--trust-mcp"], dir, env, false), {
      kind: "mcp",
      workspace: dir,
      home,
      trustMcp: true,
    });
    assert.deepEqual(parseInvocation(["tree", "a.jsonl"], dir, env, false), {
      kind: "tree",
      file: path.join(dir, "a.jsonl"),
      workspace: dir,
    });
    assert.deepEqual(parseInvocation(["sessions"], dir, env, false), { kind: "sessions", workspace: dir });
  });
});

test("tiny-pi 不给 prompt 的真实模型：在终端里进入 REPL，不在终端里一行说明；-p 没有 prompt 一行说明；工作区不存在一行说明", () => {
  withFolder((dir) => {
    const env = { TINY_PI_HOME: path.join(dir, "home") };
    const model = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m"];
    const repl = parseInvocation(model, dir, env, true);
    assert.equal(repl.kind === "run" && repl.interactive, true, "终端里不给 prompt：REPL");
    assert.throws(() => parseInvocation(model, dir, env, false), { name: "UsageError", message: /^缺少 prompt/ });
    assert.throws(() => parseInvocation([...model, "-p"], dir, env, true), {
      name: "UsageError",
      message: /^-p 只跑一轮/,
    });
    assert.throws(() => parseInvocation(["--workspace", "nowhere"], dir, env, false), {
      name: "UsageError",
      message: /^工作区 .*nowhere 不存在/,
    });
  });
});
