// The REPL (no prompt, on a terminal): one turn per line, the conversation kept across turns.
// A line typed while a turn runs is steered into it (on the Agent), or else sent when that turn
// ends, in order. Ctrl-C aborts the running turn and the REPL goes on; a second Ctrl-C exits;
// /exit or Ctrl-D ends it.
import readline from "node:readline";
import type { AgentRunResult } from "@pi/course";
import { EXIT_INTERRUPTED, EXIT_OK, RunError } from "../host/errors.js";
import type { Interrupts } from "./interrupts.js";

/** What the REPL talks to: the Runtime (runtime-conversation.ts). */
export interface Conversation {
  /** Runs one prompt to its end. */
  prompt(text: string): Promise<AgentRunResult>;
  /** Steers a line into the running turn; absent when lines typed meanwhile must wait for the next turn. */
  steer?: (text: string) => void;
  /** Aborts the running turn. */
  abort(): void;
  /** Lines queued in the agent, carried into the next prompt. */
  queued(): number;
}

export interface ReplOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Where one-line notes and failures go. */
  notes: { write(text: string): unknown };
  banner: string;
  conversation: Conversation;
  /** Called after each turn: e.g. prints the failure line of a turn that did not stop. */
  afterTurn(result: AgentRunResult): void;
  interrupts: Interrupts;
  /** /compact [instructions]: compacts the session now; resolves with the line to show (compaction-turn.ts). */
  compact?: (instructions: string | undefined, signal: AbortSignal) => Promise<string>;
  /**
   * Commands that change the session's settings between turns, by name ("/model", "/thinking":
   * chapter 18): each takes the rest of the line and resolves with the line to show. They wait
   * their turn in the queue, so a line typed before one is answered with the settings it was typed under.
   */
  settings?: ReadonlyMap<string, (argument: string) => Promise<string>>;
  /** `/skill:NAME …` and `/NAME args` (slash-prompts.ts): the prompt a line stands for, or the one line why not. */
  expand?: (line: string) => Promise<{ prompt: string } | { problem: string } | undefined>;
  /** A question is waiting for the person (the permission gate): the line answers it. Returns whether it did. */
  answer?: (line: string) => boolean;
  /** /tree and /branch ID: the session's tree, and a conversation continuing from another entry. */
  session?: { tree(): Promise<string>; branch(id: string): Promise<Conversation>; saved(): Promise<void> };
}

/** Resolves with the exit code once the person leaves. */
export function runRepl(options: ReplOptions): Promise<number> {
  const { interrupts, notes } = options;
  let { conversation } = options;
  const rl = readline.createInterface({ input: options.input, output: options.output, terminal: true, prompt: "› " });
  const queue: string[] = [];
  let running = false;
  /** A /compact is running: lines typed meanwhile wait for it (there is no turn to steer them into). */
  let compacting = false;
  let closed = false;

  return new Promise((resolve, reject) => {
    let settled = false;
    const leave = (code: number) => {
      if (settled) return;
      settled = true;
      rl.close();
      resolve(code);
    };

    const next = async (): Promise<void> => {
      const prompt = queue.shift();
      if (prompt === undefined) {
        if (closed) leave(EXIT_OK);
        else rl.prompt();
        return;
      }
      running = true;
      interrupts.beginTurn(() => conversation.abort());
      try {
        const name = prompt.split(" ", 1)[0] as string;
        const setting = options.settings?.get(name);
        const expanded = setting === undefined && prompt.startsWith("/") ? await options.expand?.(prompt) : undefined;
        if (setting !== undefined) notes.write(`${await setting(prompt.slice(name.length).trim())}\n`);
        else if (expanded !== undefined && "problem" in expanded) notes.write(`${expanded.problem}\n`);
        else options.afterTurn(await conversation.prompt(expanded?.prompt ?? prompt));
        await options.session?.saved();
        const queued = conversation.queued();
        if (queued > 0) notes.write(`（还有 ${queued} 条排队的消息，会随下一条输入一起发送）\n`);
      } catch (error) {
        if (!(error instanceof RunError)) throw error;
        notes.write(`${error.message}\n`);
      } finally {
        interrupts.endTurn();
        running = false;
      }
      await next();
    };
    const start = () => {
      next().catch((error: unknown) => {
        settled = true;
        rl.close();
        reject(error);
      });
    };

    rl.on("line", (line) => {
      interrupts.disarm();
      if (options.answer?.(line) === true) return;
      const text = line.trim();
      if (text === "/exit") {
        rl.close();
        return;
      }
      if (text === "") {
        if (!running) rl.prompt();
        return;
      }
      if (text === "/tree" || text.startsWith("/branch")) {
        sessionCommand(text);
        return;
      }
      if (text === "/compact" || text.startsWith("/compact ")) {
        compactCommand(text.slice("/compact".length).trim());
        return;
      }
      // A /skill or /template line is expanded when its turn starts, so it is never steered in raw.
      if (running && !compacting && conversation.steer !== undefined && !text.startsWith("/")) {
        conversation.steer(text);
        notes.write(`（已转入正在运行的这一轮：${text}）\n`);
        return;
      }
      queue.push(text);
      if (running) notes.write(`（已排队，这一轮结束后发送：${text}）\n`);
      else start();
    });
    /** /tree and /branch run between turns, never while one is running. */
    const sessionCommand = (text: string) => {
      if (running || queue.length > 0) {
        notes.write("（/tree 和 /branch 要等这一轮结束后再输入）\n");
        return;
      }
      const session = options.session;
      const id = text.slice("/branch".length).trim();
      const done = (line: string) => {
        options.output.write(`${line}\n`);
        rl.prompt();
      };
      if (session === undefined) return done("（这次运行没有会话）");
      if (text === "/tree") {
        session.tree().then(done, (error: Error) => done(error.message));
        return;
      }
      if (!/^[0-9a-f]{8}$/.test(id)) return done("用法：/branch ID（ID 是 /tree 列出的 8 位十六进制 id）");
      session.branch(id).then(
        (next) => {
          conversation = next;
          done(`（叶已移到 ${id}：下一条输入从这里长出新分支）`);
        },
        (error: Error) => done(error.message),
      );
    };
    /** /compact runs between turns like one: Ctrl-C aborts its summarisation request, and then nothing is appended. */
    const compactCommand = (instructions: string) => {
      if (running || queue.length > 0) {
        notes.write("（/compact 要等这一轮结束后再输入）\n");
        return;
      }
      const compact = options.compact;
      if (compact === undefined) {
        notes.write("（这次运行不能压缩上下文）\n");
        rl.prompt();
        return;
      }
      const controller = new AbortController();
      running = true;
      compacting = true;
      interrupts.beginTurn(() => controller.abort());
      compact(instructions === "" ? undefined : instructions, controller.signal)
        .then(
          (line) => notes.write(`${line}\n`),
          (error: Error) => notes.write(`${error.message.split("\n")[0]}\n`),
        )
        .then(() => options.session?.saved())
        .finally(() => {
          interrupts.endTurn();
          running = false;
          compacting = false;
          start();
        });
    };
    rl.on("SIGINT", () => {
      const outcome = interrupts.press(false);
      if (outcome === "exit") leave(EXIT_INTERRUPTED);
      else if (outcome === "aborted") notes.write("\n（正在中止这一轮；再按一次 Ctrl-C 退出）\n");
      else if (outcome === "armed") {
        notes.write("\n（再按一次 Ctrl-C 退出，或输入 /exit）\n");
        rl.prompt();
      }
    });
    rl.on("close", () => {
      closed = true;
      if (!running && queue.length === 0) leave(EXIT_OK);
    });

    notes.write(`${options.banner}\n`);
    rl.prompt();
  });
}
