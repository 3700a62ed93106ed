import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { TextContent } from "@pi/core";
import { cutLine, FULL_OUTPUT_KEEP, OutputCapture } from "../src/tools/output-capture.js";
import { shellEnvironment } from "../src/tools/process-group.js";
import { HANG_GUARD_MS } from "./hang-guard.js";
import {
  isRunning,
  packageEntry,
  peakMemoryMiB,
  pidFileProcessReaped,
  resultText,
  runNodeScript,
  spawnNodeScript,
  withWorkspace,
  workspaceTool,
} from "./workspace-fixture.js";

/** Generous: keeping the output would need a gigabyte. The bench reports the figure. */
const BASH_MEMORY_CAP_MIB = 200;

const posixOnly = { skip: process.platform === "win32" ? "POSIX shell behaviour" : false };

test(
  "bash 内存与磁盘有界：yes | head -c 1G 的峰值 RSS 远低于输出量；完整输出的临时文件只留头尾 16 MB，在进程退出时删除",
  posixOnly,
  async () => {
    await withWorkspace(async (ws) => {
      const { peak, baseline, output } = await peakMemoryMiB(`
      const [, , , bash] = createWorkspaceTools(${JSON.stringify(ws.root)});
      const result = await bash.execute({ command: "yes | head -c 1G" }, {});
      const fs = await import("node:fs");
      const { fullOutputPath, truncation } = result.details;
      return JSON.stringify({ fullOutputPath, size: fs.statSync(fullOutputPath).size, truncation, text: result.content[0].text });`);
      const run = JSON.parse(output) as {
        fullOutputPath: string;
        size: number;
        truncation: { totalLines: number; outputLines: number };
        text: string;
      };
      assert.ok(
        peak - baseline < BASH_MEMORY_CAP_MIB,
        `peak ${peak.toFixed(1)} MiB over a ${baseline.toFixed(1)} MiB baseline`,
      );
      const dropped = 2 ** 30 - FULL_OUTPUT_KEEP.headBytes - FULL_OUTPUT_KEEP.tailBytes;
      assert.equal(
        run.size,
        FULL_OUTPUT_KEEP.headBytes + FULL_OUTPUT_KEEP.tailBytes + Buffer.byteLength(cutLine(dropped)),
        "完整输出的临时文件有上限：只留开头与结尾各 8 MB，中间一行说明剪掉了多少字节（否则 1 GB 的输出写 1 GB 到磁盘）",
      );
      assert.ok(run.text.includes("at most 16 MB: the first 8 MB and the last 8 MB"), "提示里写出临时文件的上限");
      assert.deepEqual([run.truncation.totalLines, run.truncation.outputLines], [2 ** 29, 2000]);
      assert.ok(run.text.includes(run.fullOutputPath), "the notice names the temp file");
      assert.equal(existsSync(run.fullOutputPath), false, "removed when the process exited");
      assert.equal(existsSync(path.dirname(run.fullOutputPath)), false, "its folder too");
    });
  },
);

test("完整输出的临时文件：超过上限时保留开头与结尾，在剪开的地方写一行说明剪掉的字节数", async () => {
  const capture = new OutputCapture({ maxLines: 10, maxBytes: 100 }, { headBytes: 1000, tailBytes: 500 });
  const lines = Array.from({ length: 200 }, (_, index) => `line ${String(index).padStart(3, "0")} ${"x".repeat(40)}\n`);
  const whole = Buffer.from(lines.join(""));
  for (const line of lines) capture.write(Buffer.from(line));
  const { fullOutputPath, text } = await capture.finish();
  const file = await readFile(fullOutputPath as string);
  const dropped = whole.length - 1500;
  assert.deepEqual(
    file,
    Buffer.concat([whole.subarray(0, 1000), Buffer.from(cutLine(dropped)), whole.subarray(whole.length - 500)]),
    "文件只有前 1000 字节、一行剪切说明和最后 500 字节",
  );
  assert.match(cutLine(dropped), new RegExp(`${dropped} bytes cut here`), "剪切说明写出剪掉的字节数");
  assert.match(text, /at most 1\.5 KB: the first 1000 B and the last 500 B\)\]$/, "提示写出上限");
});

test("完整输出的临时文件：不超过上限时是完整的输出，没有剪切说明", async () => {
  const capture = new OutputCapture({ maxLines: 10, maxBytes: 100 }, { headBytes: 1000, tailBytes: 500 });
  const whole = Buffer.from("y\n".repeat(700));
  for (let at = 0; at < whole.length; at += 64) capture.write(whole.subarray(at, at + 64));
  const { fullOutputPath } = await capture.finish();
  assert.deepEqual(await readFile(fullOutputPath as string), whole);
});

test("bash：shell 领导自己的进程组", posixOnly, async () => {
  await withWorkspace(async (ws) => {
    const result = await ws.call("bash", { command: 'echo "$$ $(ps -o pgid= -p $$)"' });
    const [pid, pgid] = resultText(result).trim().split(/\s+/);
    assert.equal(pgid, pid);
  });
});

test("bash：进度在命令还在运行时就到达", posixOnly, async () => {
  await withWorkspace(async (ws) => {
    // The command waits for a file that only the progress callback creates.
    const go = path.join(ws.root, "go");
    const reportProgress = (content: TextContent[]) => {
      if (content.some((block) => block.text.includes("waiting"))) void writeFile(go, "");
    };
    const result = await ws.call(
      "bash",
      { command: `echo waiting; while [ ! -f ${JSON.stringify(go)} ]; do sleep 0.01; done; echo released` },
      { reportProgress },
    );
    assert.equal(resultText(result), "waiting\nreleased");
  });
});

test("bash：没有 bash 时用 sh -c 运行", posixOnly, async () => {
  const emptyPath = await mkdtemp(path.join(os.tmpdir(), "pi-no-bash-"));
  try {
    const run = await runNodeScript(
      `import { createWorkspaceTools } from ${JSON.stringify(packageEntry)};
       const [, , , bash] = createWorkspaceTools(${JSON.stringify(emptyPath)});
       const result = await bash.execute({ command: "echo $0" }, {});
       console.log(result.content[0].text);`,
      { ...process.env, PATH: emptyPath },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "/bin/sh");
  } finally {
    await rm(emptyPath, { recursive: true, force: true });
  }
});

test("bash：没有 timeout 参数时用 bashTimeoutSeconds；超时的错误带已有输出", posixOnly, async () => {
  await withWorkspace(
    async (ws) => {
      const result = await ws.call("bash", { command: "echo before; sleep 30" });
      assert.equal(result.isError, true);
      assert.equal(
        resultText(result),
        "before\n\nCommand timed out after 0.3 seconds; pass a larger timeout or run it in the background.",
      );
    },
    { bashTimeoutSeconds: 0.3 },
  );
});

test("bash：默认超时 120 秒写在工具说明里；取消过的 signal 不启动命令", async () => {
  await withWorkspace(async (ws) => {
    const bash = ws.tools.get("bash");
    assert.match(bash?.description ?? "", /Default timeout 120 s/);
    const controller = new AbortController();
    controller.abort();
    const result = await ws.call("bash", { command: "echo ran > marker.txt" }, { signal: controller.signal });
    assert.equal(resultText(result), "Command aborted before it started.");
    assert.equal(existsSync(path.join(ws.root, "marker.txt")), false);
  });
});

test("bash：没有输出时返回 (no output)；超长单行按字节保留尾部，从完整的 UTF-8 字符开始", posixOnly, async () => {
  await withWorkspace(async (ws) => {
    assert.equal(resultText(await ws.call("bash", { command: "true" })), "(no output)");
    // 30,000 × "€" (3 bytes each) = 90,000 bytes on one line.
    await writeFile(path.join(ws.root, "euros.txt"), "€".repeat(30_000));
    const result = await ws.call("bash", { command: "cat euros.txt" });
    const [body = "", notice = ""] = resultText(result).split("\n\n");
    assert.ok(!body.includes("\uFFFD"), "no broken character");
    assert.ok(Buffer.byteLength(body) <= 51_200 && Buffer.byteLength(body) > 51_197);
    assert.match(notice, /^\[Showing lines 1-1 of 1 \(50 KB limit\)\. Full output: /);
    const full = /Full output: (.+) \(kept/.exec(notice)?.[1] ?? "";
    assert.equal(await readFile(full, "utf8"), "€".repeat(30_000));
  });
});

test("bash：进程被 SIGTERM 结束时，完整输出的临时目录也被删除，退出方式不变", posixOnly, async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), "pi-bash-signal-"));
  try {
    const child = spawnNodeScript(`
      import { createWorkspaceTools } from ${JSON.stringify(packageEntry)};
      const [, , , bash] = createWorkspaceTools(${JSON.stringify(root)});
      const result = await bash.execute({ command: "seq 1 5000" }, {});
      console.log(result.details.fullOutputPath);
      setInterval(() => {}, 1000);`);
    const fullOutputPath = (await child.firstLine).trim();
    assert.equal(existsSync(fullOutputPath), true, "kept while the process runs");
    child.process.kill("SIGTERM");
    const [, signal] = await child.exited;
    assert.equal(signal, "SIGTERM", "the process still ends by the signal");
    assert.equal(existsSync(path.dirname(fullOutputPath)), false, "the folder was removed");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("bash：很大的 timeout 不会溢出成立即超时", posixOnly, async () => {
  await withWorkspace(async (ws) => {
    const result = await ws.call("bash", { command: "echo fine", timeout: 10_000_000 });
    assert.equal(resultText(result), "fine");
  });
});

test("bash：workspace 不存在时是一行错误，说出 workspace", async () => {
  const missing = path.join(os.tmpdir(), "pi-no-such-workspace", "gone");
  const result = await workspaceTool(missing, "bash")
    .execute({ command: "true" }, {})
    .catch((error: Error) => error);
  assert.ok(result instanceof Error);
  assert.equal(result.message, `The workspace ${missing} does not exist; create it or choose another workspace.`);
});

test("bash：后台子进程不停输出时，shell 退出后有界地读完管道就返回；超时与取消一直有效，取消时整个进程组被结束", {
  ...posixOnly,
  timeout: HANG_GUARD_MS,
}, async () => {
  await withWorkspace(async (ws) => {
    const pid = path.join(ws.root, "ticker.pid");
    const ticker = `(while kill -0 $$ 2>/dev/null; do sleep .01; done; while :; do echo tick; sleep .05; done) & echo $! > ${JSON.stringify(pid)}; echo started`;
    const returned = await ws.call("bash", { command: ticker, timeout: 60 });
    assert.equal(returned.isError, false, "the call returns although the child keeps writing");
    assert.match(resultText(returned), /^started\n/);
    process.kill(Number(await readFile(pid, "utf8")), "SIGKILL");

    // The child spins on builtins until the shell has been reaped, then writes without pause. A 5 ms
    // interval aborts once the shell is gone (kill(pid, 0) fails): after the exit, and always before the
    // tool's own drain timers, since Node runs due timers in order however long this process stalls.
    const shellPid = path.join(ws.root, "shell.pid");
    const chatty = `echo $$ > ${JSON.stringify(shellPid)}; (while kill -0 $$ 2>/dev/null; do :; done; while :; do echo tick; done) & echo $! > ${JSON.stringify(pid)}; echo started`;
    const controller = new AbortController();
    const watch = setInterval(() => {
      if (pidFileProcessReaped(shellPid)) controller.abort();
    }, 5);
    const aborted = await ws
      .call("bash", { command: chatty, timeout: 60 }, { signal: controller.signal })
      .finally(() => clearInterval(watch));
    assert.match(resultText(aborted), /Command aborted\.$/, "abort after the shell's exit still answers");
    const child = Number(await readFile(pid, "utf8"));
    while (isRunning(child)) await new Promise((resolve) => setTimeout(resolve, 20));
  });
});

test("bash：环境里去掉 *_API_KEY（不分大小写），其余变量保留", () => {
  const env = shellEnvironment({
    PATH: "/bin",
    OPENAI_API_KEY: "a",
    Anthropic_Api_Key: "b",
    API_KEY: "c",
    KEYRING: "d",
  });
  assert.deepEqual(env, { PATH: "/bin", KEYRING: "d" });
});
