// Three presentations of one Runtime, each taking its I/O as a parameter. print: each prompt, then
// its final text. json: the same prompts, every event as one line of JSON (the final text is in
// the events). interactive: one prompt per line read, then its final text. A mode only presents:
// it calls Runtime.prompt exactly once per user input and persists nothing itself. The mode is
// chosen before anything runs; an output that fails fails the mode with its own error.
import type { AgentRunResult } from "@pi/course";
import type { Runtime, RuntimeEvent } from "../runtime/index.js";
import { RuntimeError } from "../runtime/index.js";

export const MODE_NAMES = ["print", "json", "interactive"] as const;
export type ModeName = (typeof MODE_NAMES)[number];

export interface ModeIO {
  /** stdout, say: a write that throws fails the mode with that very error. */
  output: { write(text: string): unknown };
  /** print and json: the user inputs, in order. */
  prompts?: readonly string[];
  /** interactive: the lines the person types. */
  input?: AsyncIterable<string>;
}

/** What a mode may touch of the Runtime. */
export type ModeRuntime = Pick<Runtime, "prompt" | "subscribe">;

/** Resolves with the last prompt's result (undefined: there was no input). */
export type Mode = (runtime: ModeRuntime, io: ModeIO) => Promise<AgentRunResult | undefined>;

/** The text of the last assistant message of `result`; "" when there is none. */
export function finalText(result: AgentRunResult): string {
  for (let index = result.messages.length - 1; index >= 0; index -= 1) {
    const message = result.messages[index];
    if (message?.role !== "assistant") continue;
    return message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  }
  return "";
}

function writeFinal(io: ModeIO, result: AgentRunResult): void {
  const text = finalText(result);
  if (text !== "") io.output.write(`${text}\n`);
}

export const printMode: Mode = async (runtime, io) => {
  let last: AgentRunResult | undefined;
  for (const prompt of io.prompts ?? []) {
    last = await runtime.prompt(prompt);
    writeFinal(io, last);
  }
  return last;
};

export const jsonMode: Mode = async (runtime, io) => {
  // The Runtime keeps a listener's throw from the run: keep the first one here and rethrow it.
  let failed: { error: unknown } | undefined;
  const unsubscribe = runtime.subscribe((event: RuntimeEvent) => {
    if (failed !== undefined) return;
    try {
      io.output.write(`${JSON.stringify(event)}\n`);
    } catch (error) {
      failed = { error };
    }
  });
  let last: AgentRunResult | undefined;
  try {
    for (const prompt of io.prompts ?? []) {
      last = await runtime.prompt(prompt);
      if (failed !== undefined) throw failed.error;
    }
  } finally {
    unsubscribe();
  }
  return last;
};

export const interactiveMode: Mode = async (runtime, io) => {
  let last: AgentRunResult | undefined;
  for await (const line of io.input ?? []) {
    const prompt = line.trim();
    if (prompt === "") continue;
    last = await runtime.prompt(prompt);
    writeFinal(io, last);
  }
  return last;
};

const MODES: Record<ModeName, Mode> = { print: printMode, json: jsonMode, interactive: interactiveMode };

/** The mode called `name`; one RuntimeError line for any other name. */
export function selectMode(name: string): Mode {
  if (!Object.hasOwn(MODES, name)) {
    throw new RuntimeError(`未知的模式 ${JSON.stringify(name)}：可用的模式是 ${MODE_NAMES.join("、")}。`);
  }
  return MODES[name as ModeName];
}

/** Chooses the mode first (an unknown one fails before anything runs), then runs it. */
export function runMode(name: string, runtime: ModeRuntime, io: ModeIO): Promise<AgentRunResult | undefined> {
  let mode: Mode;
  try {
    mode = selectMode(name);
  } catch (error) {
    return Promise.reject(error);
  }
  return mode(runtime, io);
}
