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
  return new Promise((resolve, reject) => new Repl(options, resolve, reject).begin());
}

/** One REPL session: its readline, the lines waiting their turn, and whether a turn (or /compact) runs. */
class Repl {
  private readonly rl: readline.Interface;
  private readonly notes: ReplOptions["notes"];
  private readonly interrupts: Interrupts;
  private conversation: Conversation;
  private readonly queue: string[] = [];
  private running = false;
  /** A /compact is running: lines typed meanwhile wait for it (there is no turn to steer them into). */
  private compacting = false;
  private closed = false;
  private settled = false;

  constructor(
    private readonly options: ReplOptions,
    private readonly resolve: (code: number) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.notes = options.notes;
    this.interrupts = options.interrupts;
    this.conversation = options.conversation;
    this.rl = readline.createInterface({ input: options.input, output: options.output, terminal: true, prompt: "› " });
  }

  begin(): void {
    this.rl.on("line", (line) => this.onLine(line));
    this.rl.on("SIGINT", () => this.onInterrupt());
    this.rl.on("close", () => {
      this.closed = true;
      if (!this.running && this.queue.length === 0) this.leave(EXIT_OK);
    });
    this.notes.write(`${this.options.banner}\n`);
    this.rl.prompt();
  }

  private leave(code: number): void {
    if (this.settled) return;
    this.settled = true;
    this.rl.close();
    this.resolve(code);
  }

  private start(): void {
    this.next().catch((error: unknown) => {
      this.settled = true;
      this.rl.close();
      this.reject(error);
    });
  }

  /** Runs the queued lines one turn at a time; with none left, prompts (or leaves once input has closed). */
  private async next(): Promise<void> {
    const prompt = this.queue.shift();
    if (prompt === undefined) {
      if (this.closed) this.leave(EXIT_OK);
      else this.rl.prompt();
      return;
    }
    this.running = true;
    this.interrupts.beginTurn(() => this.conversation.abort());
    try {
      await this.turn(prompt);
    } catch (error) {
      if (!(error instanceof RunError)) throw error;
      this.notes.write(`${error.message}\n`);
    } finally {
      this.interrupts.endTurn();
      this.running = false;
    }
    await this.next();
  }

  /** One line's turn: a setting (/model, /thinking), a /template or /skill expanded, or the line itself. */
  private async turn(prompt: string): Promise<void> {
    const { options, notes } = this;
    const name = prompt.split(" ", 1)[0] as string;
    const setting = options.settings?.get(name);
    const expanded = setting === undefined && prompt.startsWith("/") ? await options.expand?.(prompt) : undefined;
    if (setting !== undefined) notes.write(`${await setting(prompt.slice(name.length).trim())}\n`);
    else if (expanded !== undefined && "problem" in expanded) notes.write(`${expanded.problem}\n`);
    else options.afterTurn(await this.conversation.prompt(expanded?.prompt ?? prompt));
    await options.session?.saved();
    const queued = this.conversation.queued();
    if (queued > 0) notes.write(`（还有 ${queued} 条排队的消息，会随下一条输入一起发送）\n`);
  }

  private onLine(line: string): void {
    this.interrupts.disarm();
    if (this.options.answer?.(line) === true) return;
    const text = line.trim();
    if (text === "/exit") {
      this.rl.close();
      return;
    }
    if (text === "") {
      if (!this.running) this.rl.prompt();
      return;
    }
    if (text === "/tree" || text.startsWith("/branch")) {
      this.sessionCommand(text);
      return;
    }
    if (text === "/compact" || text.startsWith("/compact ")) {
      this.compactCommand(text.slice("/compact".length).trim());
      return;
    }
    // A /skill or /template line is expanded when its turn starts, so it is never steered in raw.
    if (this.running && !this.compacting && this.conversation.steer !== undefined && !text.startsWith("/")) {
      this.conversation.steer(text);
      this.notes.write(`（已转入正在运行的这一轮：${text}）\n`);
      return;
    }
    this.queue.push(text);
    if (this.running) this.notes.write(`（已排队，这一轮结束后发送：${text}）\n`);
    else this.start();
  }

  /** /tree and /branch run between turns, never while one is running. */
  private sessionCommand(text: string): void {
    if (this.running || this.queue.length > 0) {
      this.notes.write("（/tree 和 /branch 要等这一轮结束后再输入）\n");
      return;
    }
    const session = this.options.session;
    const id = text.slice("/branch".length).trim();
    const done = (line: string) => {
      this.options.output.write(`${line}\n`);
      this.rl.prompt();
    };
    if (session === undefined) {
      done("（这次运行没有会话）");
      return;
    }
    if (text === "/tree") {
      session.tree().then(done, (error: Error) => done(error.message));
      return;
    }
    if (!/^[0-9a-f]{8}$/.test(id)) {
      done("用法：/branch ID（ID 是 /tree 列出的 8 位十六进制 id）");
      return;
    }
    session.branch(id).then(
      (next) => {
        this.conversation = next;
        done(`（叶已移到 ${id}：下一条输入从这里长出新分支）`);
      },
      (error: Error) => done(error.message),
    );
  }

  /** /compact runs between turns like one: Ctrl-C aborts its summarisation request, and then nothing is appended. */
  private compactCommand(instructions: string): void {
    if (this.running || this.queue.length > 0) {
      this.notes.write("（/compact 要等这一轮结束后再输入）\n");
      return;
    }
    const compact = this.options.compact;
    if (compact === undefined) {
      this.notes.write("（这次运行不能压缩上下文）\n");
      this.rl.prompt();
      return;
    }
    const controller = new AbortController();
    this.running = true;
    this.compacting = true;
    this.interrupts.beginTurn(() => controller.abort());
    compact(instructions === "" ? undefined : instructions, controller.signal)
      .then(
        (line) => this.notes.write(`${line}\n`),
        (error: Error) => this.notes.write(`${error.message.split("\n")[0]}\n`),
      )
      .then(() => this.options.session?.saved())
      .finally(() => {
        this.interrupts.endTurn();
        this.running = false;
        this.compacting = false;
        this.start();
      });
  }

  private onInterrupt(): void {
    const outcome = this.interrupts.press(false);
    if (outcome === "exit") this.leave(EXIT_INTERRUPTED);
    else if (outcome === "aborted") this.notes.write("\n（正在中止这一轮；再按一次 Ctrl-C 退出）\n");
    else if (outcome === "armed") {
      this.notes.write("\n（再按一次 Ctrl-C 退出，或输入 /exit）\n");
      this.rl.prompt();
    }
  }
}
