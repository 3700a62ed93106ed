// The one line tiny-pi prints at start: for each part a practice directory can replace (the rows
// of learner-code.ts: the provider when it is the learner's, loop, tools, Agent, session store,
// compaction, resources, Runtime), whether it is the course's (the reference) or the learner's
// from which directory; when every part is the learner's from one directory, it says that first. In the REPL also what a line typed mid-turn
// does: chapter 09's Agent steers it into the running turn; a loop no Agent drives (--loop) runs
// turn by turn, and the line waits until the turn has ended.

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
  queue: "运行中输入的一行排到这一轮结束之后（第 09 章的 Agent 只驱动它自己那个包的 loop）",
};

export function runtimeLine(facts: RuntimeFacts): string {
  const typed = facts.typedLines === undefined ? [] : [TYPED_LINES[facts.typedLines]];
  const dirs = new Set(facts.parts.map((part) => part.dir));
  const [only] = dirs;
  // Every part from one practice directory (--from practice/13): the course's payoff, said first.
  if (dirs.size === 1 && only !== undefined) {
    const parts = facts.parts.map((part) => `${part.label} ${part.what}`).join("、");
    return [`全部是 ${only} 里你自己写的代码：${parts}`, ...typed].join(" · ");
  }
  const parts = facts.parts.map(
    (part) => `${part.label}：${part.dir === undefined ? "课程的" : `${part.dir} 里你的`} ${part.what}`,
  );
  return [...parts, ...typed].join(" · ");
}
