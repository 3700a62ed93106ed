// The one line tiny-pi prints at start: whose runAgentLoop and whose tools this run uses, and in
// the REPL what a line typed mid-turn does. That depends on the loop: chapter 09's Agent steers it
// into the running turn, but the Agent drives only the course's loop on a new conversation, so
// with --loop or --resume the line waits until the turn has ended.

export interface RuntimeFacts {
  /** The practice directory of the learner's loop, as shown; absent: the course's loop. */
  loopDir?: string;
  /** The practice directory of the learner's tools, as shown; absent: the course's tools. */
  toolsDir?: string;
  tools: readonly string[];
  /** REPL only: typed lines steer into the running turn, or queue after it. */
  typedLines?: "steer" | "queue";
}

const TYPED_LINES = {
  steer: "运行中输入的一行转入这一轮（第 09 章的 Agent）",
  queue: "运行中输入的一行排到这一轮结束之后（第 09 章的 Agent 只驱动课程的 loop 与新会话）",
};

export function runtimeLine(facts: RuntimeFacts): string {
  const whose = (dir: string | undefined) => (dir === undefined ? "课程的" : `${dir} 里你的`);
  const typed = facts.typedLines === undefined ? "" : ` · ${TYPED_LINES[facts.typedLines]}`;
  return `loop：${whose(facts.loopDir)} runAgentLoop · 工具：${whose(facts.toolsDir)} ${facts.tools.join(",")}${typed}`;
}
