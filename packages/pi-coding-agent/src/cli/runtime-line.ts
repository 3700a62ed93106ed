// The one line tiny-pi prints at start: for each part a practice directory can replace (the rows
// of learner-code.ts: the provider when it is the learner's, loop, tools, Agent, session store,
// compaction, resources), whether it is the course's (the reference) or the learner's from which
// directory; in the REPL also what a line typed mid-turn does. That depends on the loop: chapter
// 09's Agent steers it into the running turn, but the Agent drives only its own package's loop on
// a new conversation, so with --loop or --resume the line waits until the turn has ended.

export interface RuntimePart {
  /** `loop`, `工具`, `Agent`, `会话`, `压缩`. */
  label: string;
  /** What runs: `runAgentLoop`, the tool names… */
  what: string;
  /** The practice directory it comes from, as shown; absent: the course's. */
  dir?: string;
}

export interface RuntimeFacts {
  parts: readonly RuntimePart[];
  /** REPL only: typed lines steer into the running turn, or queue after it. */
  typedLines?: "steer" | "queue";
}

const TYPED_LINES = {
  steer: "运行中输入的一行转入这一轮（第 09 章的 Agent）",
  queue: "运行中输入的一行排到这一轮结束之后（第 09 章的 Agent 只驱动它自己那个包的 loop 与新会话）",
};

export function runtimeLine(facts: RuntimeFacts): string {
  const parts = facts.parts.map(
    (part) => `${part.label}：${part.dir === undefined ? "课程的" : `${part.dir} 里你的`} ${part.what}`,
  );
  const typed = facts.typedLines === undefined ? [] : [TYPED_LINES[facts.typedLines]];
  return [...parts, ...typed].join(" · ");
}
