// The one line tiny-pi prints at start: for each part a practice directory can replace (the rows
// of learner-code.ts: the provider when it is the learner's, loop, tools, Agent, session store,
// compaction, resources, Runtime and modes, and chapters 15-19's parts when they are the learner's),
// with the chapter that teaches it, whether it is the course's (the reference) or the learner's
// from which directory; a part taken from a practice tree whose record says that chapter is the
// course's reference there is named so; when every part is the learner's from one directory, it
// says that first. In the REPL also what a line typed mid-turn does: chapter 09's Agent steers it
// into the running turn; a loop no Agent drives (--loop) runs turn by turn, and the line waits
// until the turn has ended.

export interface RuntimePart {
  /** `loop`, `工具`, `Agent`, `会话`, `压缩`. */
  label: string;
  /** The chapter (checkpoint id) whose code it is, shown after the label: `loop（07）`. */
  chapter: string;
  /** What runs: `runAgentLoop`, the tool names… */
  what: string;
  /** The practice directory it comes from, as shown; absent: the course's. */
  dir?: string;
  /** From `dir`, but that tree's record says this chapter is the course's reference there (not the learner's). */
  reference?: true;
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

/** `loop（07）`: the part and the chapter that teaches it, so the line says whose code runs chapter by chapter. */
function title(part: RuntimePart): string {
  return `${part.label}（${part.chapter}）`;
}

function whose(part: RuntimePart): string {
  if (part.dir === undefined) return "课程的";
  return part.reference === true ? `${part.dir} 里课程的参考实现` : `${part.dir} 里你的`;
}

export function runtimeLine(facts: RuntimeFacts): string {
  const typed = facts.typedLines === undefined ? [] : [TYPED_LINES[facts.typedLines]];
  const dirs = new Set(facts.parts.map((part) => part.dir));
  const [only] = dirs;
  const named = (parts: readonly RuntimePart[]) => parts.map((part) => `${title(part)}${part.what}`).join("、");
  if (dirs.size === 1 && only !== undefined) {
    const reference = facts.parts.filter((part) => part.reference === true);
    // Every part from one practice directory and every one the learner's (--from practice/13 carried from 00): the payoff.
    if (reference.length === 0) return [`全部是 ${only} 里你自己写的代码：${named(facts.parts)}`, ...typed].join(" · ");
    const yours = facts.parts.filter((part) => part.reference !== true);
    return [
      `${only} 里你写的：${yours.length === 0 ? "没有" : named(yours)}；课程的参考实现（建练习目录时带进来的）：${named(reference)}`,
      ...typed,
    ].join(" · ");
  }
  const parts = facts.parts.map((part) => `${title(part)}：${whose(part)} ${part.what}`);
  return [...parts, ...typed].join(" · ");
}
