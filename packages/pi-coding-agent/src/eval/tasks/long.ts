// A task long enough to need compaction: six prompts, each reading a long file and answering with
// the code word at its end, then a question about the newest. Six interactions do not fit the
// window the model enforces; the agent must send only whole recent interactions (chapter 11).
// A cut inside an interaction leaves a result without its call, and the model refuses that request.
import {
  answer,
  callTool,
  finalAnswer,
  lastOf,
  policyModel,
  resultsSinceUser,
  textOf,
  verdictOf,
} from "../policy-model.js";
import type { EvalTask } from "../types.js";

const PARTS = 6;
const WINDOW = 2400;
const codeOf = (part: number) => `代号-${(part * 7919).toString(36)}`;
const filler = (part: number) =>
  Array.from({ length: 40 }, (_, line) => `第 ${part} 段第 ${line + 1} 行：这一行只是为了让文件足够长。`).join("\n");

const fixture: Record<string, string> = {};
for (let part = 1; part <= PARTS; part += 1) fixture[`part${part}.txt`] = `${filler(part)}\n结束：${codeOf(part)}\n`;

export const longCompaction: EvalTask = {
  name: "long-compaction",
  fixture,
  prompts: [
    ...Array.from({ length: PARTS }, (_, index) => `读取 part${index + 1}.txt，告诉我它最后一行的代号。`),
    "你最后读的那个文件，代号是什么？",
  ],
  agent: { contextWindow: WINDOW },
  model: () =>
    policyModel(
      (messages) => {
        const ask = textOf(lastOf(messages, (message) => message.role === "user"));
        const file = /part\d+\.txt/.exec(ask)?.[0];
        const [result] = resultsSinceUser(messages);
        if (file !== undefined && result === undefined) return callTool("read", { path: file });
        const source = result ?? lastOf(messages, (message) => message.role === "toolResult");
        const code = /结束：(\S+)/.exec(textOf(source))?.[1];
        return answer(code === undefined ? "我不知道。" : `代号是 ${code}。`);
      },
      { contextWindow: WINDOW },
    ),
  declares: [],
  judge: ({ messages }) =>
    verdictOf({
      "最后的回答是 part6 的代号": finalAnswer(messages).includes(codeOf(PARTS)),
      [`${PARTS + 1} 个提示都得到回答`]:
        messages.filter((m) => m.role === "assistant" && m.stopReason === "stop").length === PARTS + 1,
    }),
};
