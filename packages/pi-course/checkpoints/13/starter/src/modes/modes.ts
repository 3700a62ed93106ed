// Checkpoint 13 · 学习脚手架：ModeIO、Mode、finalText()、writeFinal()、MODES 与先选模式再运行的 runMode() 已经写好。
// Lab 13.4 的几处先抛出“尚未实现”的临时错误。按 ① → ③ 完成 `// Lab 13.4` 注释描述的动作，删除临时错误，
// 然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="三种模式" packages/pi-coding-agent/dist/test/13-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
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
  // Lab 13.4 ①：io.prompts 里每个输入（没有就是 []）按顺序 await runtime.prompt(输入) 恰好一次，然后
  // writeFinal(io, 结果)。返回最后一个结果（没有输入就是 undefined）。prompt 的拒绝不要接住：它原样传出。
  throw new Error("Lab 13.4 三种模式 尚未实现");
};

export const jsonMode: Mode = async (runtime, io) => {
  // Lab 13.4 ②：和 print 一样的提示，只是呈现不同：runtime.subscribe() 一个监听器，把每个事件写成
  // `${JSON.stringify(event)}\n`，不写最终文本（它就在事件里）。Runtime 会吞掉监听器抛出的错误，所以在监听器里
  // try/catch 记下第一个写错误（之后不再写），每个 prompt 之后有记下的错误就原样抛出它。无论怎样结束都
  // （finally）取消订阅。
  throw new Error("Lab 13.4 三种模式 尚未实现");
};

export const interactiveMode: Mode = async (runtime, io) => {
  // Lab 13.4 ①：for await 读 io.input（没有就是 []）的每一行，先 trim()：是空串就跳过；否则
  // await runtime.prompt(trim 之后的这一行) 恰好一次，再 writeFinal(io, 结果)。返回最后一个结果。
  // prompt 的拒绝同样原样传出。
  throw new Error("Lab 13.4 三种模式 尚未实现");
};

const MODES: Record<ModeName, Mode> = { print: printMode, json: jsonMode, interactive: interactiveMode };

/** The mode called `name`; one RuntimeError line for any other name. */
export function selectMode(name: string): Mode {
  // Lab 13.4 ③：MODES 里自己的键（Object.hasOwn：别让 "toString" 这种原型上的名字混进来）才是模式，返回它；
  // 否则抛出一行 RuntimeError `未知的模式 ${JSON.stringify(name)}：可用的模式是 ${MODE_NAMES.join("、")}。`
  throw new Error("Lab 13.4 三种模式 尚未实现");
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
