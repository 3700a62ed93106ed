// npm run test:chaos — the course's acceptance test of chapter 19. tiny-pi runs one task (streamed
// text, two reads, a write, three bash steps) against task-model.ts on 127.0.0.1 and is SIGKILLed
// at seeded, reproducible points (TINY_PI_KILL_AT: during streaming, between an intent and its
// execute(), halfway through a commit's write), then resumed with --resume until the task
// completes, again and again until 200 kills. Nothing depends on timing: every kill point is an
// event count. It checks, across all runs:
//  - each session file's committed part is a byte prefix of its next state (torn tails aside);
//  - no bash intent ran twice (the audit holds each call id at most once) and every completed bash
//    call ran exactly once;
//  - every call of every final file is paired, and `pi --offline --export` reads every final file;
//  - every final workspace equals the uninterrupted run's.
// It prints the kill-point histogram, the counts and the time. Exit 1 on the first broken rule, with
// the command that replays the task that broke it (CHAOS_TASK=N; CHAOS_KEEP=1 keeps its files).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { committedPart } from "../../src/durable/committed-part.js";
import { piEnvironment, piUnavailable, runPi } from "../cli-support/pi-upstream.js";
import { cliEnv, cliPath } from "../cli-support/run-cli.js";
import { startTaskModel } from "./task-model.js";

const KILLS = Number(process.env.CHAOS_KILLS ?? 200);
const SEED = Number(process.env.CHAOS_SEED ?? 19);
const PARALLEL = 2;
/** Kill points drawn for one task: its runs are killed at them in turn, then one runs to the end. */
const KILLS_PER_TASK = 12;
/** CHAOS_TASK=N: run task N alone (its kill points are the same as in the full run). */
const ONLY_TASK = process.env.CHAOS_TASK === undefined ? undefined : Number(process.env.CHAOS_TASK);
type Point = "stream" | "intent" | "commit";
/** How far into a run each point may be chosen (a turn streams ≈ 12 deltas and makes ≈ 5 commits): small enough that most runs die, large enough that each can get past a turn. */
const RANGE: Record<Point, number> = { stream: 30, intent: 3, commit: 12 };

/** mulberry32: a small seeded generator, so the same seed picks the same kill points. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function runTinyPi(
  args: string[],
  cwd: string,
  killAt?: string,
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  const env = cliEnv(killAt === undefined ? {} : { TINY_PI_KILL_AT: killAt });
  const child = spawn(process.execPath, [cliPath, ...args], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr })));
}

function sessionFile(workspace: string): string | undefined {
  const dir = path.join(workspace, ".tiny-pi", "sessions");
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
  assert.ok(files.length <= 1, `一个任务只有一个会话文件：${files.join(", ")}`);
  return files[0] === undefined ? undefined : path.join(dir, files[0]);
}

function newWorkspace(root: string, name: string): string {
  const dir = mkdtempSync(path.join(root, `${name}-`));
  writeFileSync(path.join(dir, "a.txt"), "alpha\n");
  writeFileSync(path.join(dir, "b.txt"), "beta\n");
  return dir;
}

/** The files the task produces (the session folder aside). */
function workspaceState(dir: string): Record<string, string> {
  const state: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    if (name === ".tiny-pi") continue;
    state[name] = readFileSync(path.join(dir, name), "utf8");
  }
  return state;
}

/** The session's newest task: "done" once completed, "pending" while unfinished, "none" before the prompt committed. */
function taskState(file: string): "none" | "pending" | "done" {
  let state: "none" | "pending" | "done" = "none";
  for (const value of committedPart(readFileSync(file, "utf8")).values as Line[]) {
    if (value.customType === "tiny-pi/durable" && value.data.kind === "task") {
      state = value.data.state === "completed" ? "done" : "pending";
    }
  }
  return state;
}

interface Counts {
  kills: Record<Point, number>;
  runs: number;
  tasks: number;
  bashIntents: number;
  interrupted: number;
  partials: number;
}

// biome-ignore lint/suspicious/noExplicitAny: session lines are read field by field
type Line = any;

function checkFinalFile(file: string, audit: string[], counts: Counts): void {
  const lines: Line[] = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
  const messages = lines.filter((line) => line.type === "message").map((line) => line.message);
  const results = new Map<string, Line>();
  for (const message of messages) if (message.role === "toolResult") results.set(message.toolCallId, message);
  for (const message of messages) {
    if (message.role === "assistant" && message.stopReason === "aborted") counts.partials += 1;
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type !== "toolCall") continue;
      const result = results.get(block.id);
      assert.ok(result !== undefined, `${file}：调用 ${block.id} 有成对的结果`);
      if (block.name !== "bash") continue;
      counts.bashIntents += 1;
      const ran = audit.filter((id) => id === block.id).length;
      if (String(result.content?.[0]?.text ?? "").startsWith("Interrupted")) {
        counts.interrupted += 1;
        assert.ok(ran <= 1, `${file}：标为 interrupted 的 bash ${block.id} 最多跑过一次（跑了 ${ran} 次）`);
      } else {
        assert.equal(ran, 1, `${file}：完成的 bash ${block.id} 恰好跑了一次`);
      }
    }
  }
  assert.equal(new Set(audit).size, audit.length, `没有一个 bash 意图跑了两次：${audit.join(",")}`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const root = mkdtempSync(path.join(os.tmpdir(), "tiny-pi-chaos-"));
  // CHAOS_KEEP=1 keeps the folder of a failed run (its session files and workspaces) to read.
  let failed = false;
  const cleanup = () => {
    if (failed && process.env.CHAOS_KEEP === "1") process.stderr.write(`chaos: 留下了 ${root}\n`);
    else rmSync(root, { recursive: true, force: true });
  };
  // Ctrl-C or a SIGTERM (a CI timeout, a killed terminal) leaves no temp folder behind.
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => {
      cleanup();
      process.exit(code);
    });
  }
  try {
    const skipPi = piUnavailable();
    const piHome = path.join(root, "pi-home");
    const counts: Counts = {
      kills: { stream: 0, intent: 0, commit: 0 },
      runs: 0,
      tasks: 0,
      bashIntents: 0,
      interrupted: 0,
      partials: 0,
    };
    // Each task draws its kill points from its own generator (the seed and the task's number), so
    // a task is killed at the same points whichever worker runs it: CHAOS_TASK=N replays task N.
    const points: Point[] = ["stream", "intent", "commit"];
    const planOf = (index: number): string[] => {
      const next = random(SEED + Math.imul(index + 1, 0x9e3779b1));
      return Array.from({ length: KILLS_PER_TASK }, () => {
        const point = points[Math.floor(next() * points.length)] as Point;
        return `${point}:${1 + Math.floor(next() * RANGE[point])}`;
      });
    };
    let killed = 0;

    const audit0 = path.join(root, "audit-reference.txt");
    const reference = await startTaskModel(audit0);
    const refDir = newWorkspace(root, "reference");
    const args = (model: { baseURL: string }) => [
      "--base-url",
      model.baseURL,
      "--model",
      "m",
      "--tools",
      "read,write,bash",
      "--yes",
    ];
    const refRun = await runTinyPi([...args(reference), "按步骤完成任务"], refDir);
    await reference.close();
    assert.equal(refRun.code, 0, refRun.stderr);
    const expected = workspaceState(refDir);
    assert.deepEqual(expected["counter.txt"], "step-1\nstep-2\nstep-3\n", "不被打断的一次运行：三个 bash 步骤各一行");

    const runTask = async (index: number) => {
      const plan = planOf(index);
      const audit = path.join(root, `audit-${index}.txt`);
      const model = await startTaskModel(audit);
      const dir = newWorkspace(root, `task-${index}`);
      try {
        let previous = Buffer.alloc(0);
        for (let attempt = 0; ; attempt += 1) {
          assert.ok(attempt < 200, "任务在 200 次运行内完成");
          const killAt = plan[attempt];
          const file = sessionFile(dir);
          const state = file === undefined ? "none" : taskState(file);
          if (state === "done") break; // killed after the task's completion was committed
          const prompt = state === "pending" ? [] : ["按步骤完成任务"];
          const result = await runTinyPi(
            file === undefined ? [...args(model), ...prompt] : [...args(model), "--resume", file, ...prompt],
            dir,
            killAt,
          );
          counts.runs += 1;
          const after = sessionFile(dir);
          if (after !== undefined) {
            const content = readFileSync(after);
            const kept = previous.subarray(0, committedPart(previous.toString("utf8")).bytes);
            assert.ok(content.subarray(0, kept.length).equals(kept), `${after}：已提交的字节是下一次状态的前缀`);
            previous = content;
          }
          if (result.signal === "SIGKILL") {
            killed += 1;
            const point = (killAt as string).split(":")[0] as Point;
            counts.kills[point] += 1;
            continue;
          }
          assert.equal(result.code, 0, `运行 ${killAt ?? "（不杀）"} 失败：${result.stderr}`);
          break;
        }
        const file = sessionFile(dir) as string;
        const ran = existsSync(audit)
          ? readFileSync(audit, "utf8")
              .split("\n")
              .filter((line) => line !== "")
          : [];
        checkFinalFile(file, ran, counts);
        assert.deepEqual(workspaceState(dir), expected, `任务 ${index} 的工作区和不被打断的一次运行相同`);
        if (skipPi === undefined) {
          const env = await piEnvironment(path.join(piHome, String(index)), model.baseURL);
          const page = path.join(root, `export-${index}.html`);
          const exported = await runPi(["--export", file, page], dir, env);
          assert.equal(exported.code, 0, `pi --offline --export 读得了 ${file}：${exported.stderr}`);
        }
        counts.tasks += 1;
        process.stderr.write(`chaos: 任务 ${index} 完成，已杀 ${killed}/${KILLS} 次\n`);
      } finally {
        await model.close();
      }
    };

    let index = 0;
    const replayable = async (task: number) => {
      try {
        await runTask(task);
      } catch (error) {
        const again = `CHAOS_SEED=${SEED} CHAOS_TASK=${task} CHAOS_KEEP=1 npm run test:chaos`;
        throw new Error(`任务 ${task}：${error instanceof Error ? error.message : String(error)}\n重现：${again}`);
      }
    };
    const worker = async () => {
      while (killed < KILLS) await replayable(index++);
    };
    if (ONLY_TASK !== undefined) await replayable(ONLY_TASK);
    else await Promise.all(Array.from({ length: PARALLEL }, worker));

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const total = counts.kills.stream + counts.kills.intent + counts.kills.commit;
    process.stdout.write(
      [
        `chaos: ${total} 次 SIGKILL（种子 ${SEED}），${counts.tasks} 个任务完成，共 ${counts.runs} 次 tiny-pi 运行，${seconds} s`,
        "  杀在哪里（直方图）：",
        ...(Object.entries(counts.kills) as [Point, number][]).map(
          ([point, n]) =>
            `    ${point.padEnd(7)} ${String(n).padStart(4)} ${"#".repeat(Math.round((n / Math.max(1, total)) * 50))}`,
        ),
        `  bash 调用 ${counts.bashIntents} 个，其中 ${counts.interrupted} 个标为 interrupted；保留的部分回答 ${counts.partials} 段`,
        `  pi --offline --export：${skipPi === undefined ? `${counts.tasks} 个最终文件都读得了` : `跳过（${skipPi}）`}`,
        "",
      ].join("\n"),
    );
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`chaos: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
