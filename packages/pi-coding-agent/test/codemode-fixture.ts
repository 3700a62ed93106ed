// Test helpers for codemode: tools that record what reached them, and a check that a run left the
// host as it found it (no sandbox worker alive, Object.prototype unpolluted).
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Tool, type ToolExecutionContext, text } from "@pi/core";
import { liveSandboxWorkers } from "../src/codemode/index.js";
import { createWorkspaceTools } from "../src/index.js";

/** `echo`: answers with the JSON of its arguments and keeps every argument object it received. */
export function echoTool(received: Record<string, unknown>[] = []): Tool {
  return {
    name: "echo",
    description: "Answer with the JSON of the arguments.",
    parameters: { type: "object" },
    async execute(args) {
      received.push(args);
      return { content: [text(JSON.stringify(args))] };
    },
  };
}

/** `fails`: always throws `message`. */
export function failingTool(message = "boom"): Tool {
  return {
    name: "fails",
    description: "Always fails.",
    parameters: { type: "object" },
    async execute() {
      throw new Error(message);
    },
  };
}

/**
 * `waits`: settles when its signal aborts (rejects) or when `release()` is called (answers "released");
 * `started` resolves once it is running. A test that aborts then releases it sees a run that ignored the
 * abort finish normally, instead of hanging until the test's timeout.
 */
export function waitingTool(): { tool: Tool; started: Promise<void>; aborted: () => boolean; release: () => void } {
  let markStarted = () => {};
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  let sawAbort = false;
  let release = () => {};
  const tool: Tool = {
    name: "waits",
    description: "Waits until cancelled or released.",
    parameters: { type: "object" },
    execute(_args, context: ToolExecutionContext) {
      markStarted();
      return new Promise((resolve, reject) => {
        release = () => resolve({ content: [text("released")] });
        const stop = () => {
          sawAbort = true;
          reject(new Error("cancelled"));
        };
        if (context.signal?.aborted) stop();
        else context.signal?.addEventListener("abort", stop, { once: true });
      });
    },
  };
  return { tool, started, aborted: () => sawAbort, release: () => release() };
}

/** A temp workspace with chapter 08's tools; removed afterwards. */
export async function withWorkspace<T>(body: (root: string, tools: Tool[]) => Promise<T>): Promise<T> {
  const root = await mkdtemp(path.join(os.tmpdir(), "codemode-test-"));
  try {
    return await body(root, createWorkspaceTools(root));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The host after a run: no sandbox worker alive, nothing added to Object.prototype. */
export function assertHostUntouched(): void {
  assert.equal(liveSandboxWorkers(), 0, "运行结束后不留下任何 worker 线程");
  assert.equal(({} as Record<string, unknown>).polluted, undefined, "宿主的 Object.prototype 没有被污染");
}

/** A run's error is one line. */
export function assertOneLine(error: string | undefined): void {
  assert.ok(error !== undefined && error.length > 0, "失败的运行带一行错误");
  assert.ok(!error.includes("\n"), `错误只有一行：${error}`);
}
