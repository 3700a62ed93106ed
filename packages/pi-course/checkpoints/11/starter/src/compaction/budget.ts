// Checkpoint 11 · 学习脚手架：ContextBudget、defaultSafetyMargin() 与 tokenCount() 已经写好；context.ts 的
// buildContext() 用你写的 historyBudget() 与 keepNewest()。Lab 11.3 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ③ 完成 `// Lab 11.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="上下文预算" packages/pi-coding-agent/dist/test/11-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.

export interface ContextBudget {
  /** The model's context window, in tokens. */
  contextWindow: number;
  /** Kept free for the model's output. */
  reserveTokens: number;
  systemPromptTokens: number;
  /** Room for the estimate's error; defaults to `defaultSafetyMargin(contextWindow)`. */
  safetyMarginTokens?: number;
}

/** The default margin: 5% of the window (the guide measures the estimate's error). */
export function defaultSafetyMargin(contextWindow: number): number {
  return Math.ceil(contextWindow * 0.05);
}

function tokenCount(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new Error(`预算的 ${name} 是 ${JSON.stringify(value)}：应是非负整数（token 数）`);
  }
  return value;
}

/** Tokens left for the history: window − system prompt − reserve − margin (may be ≤ 0). */
export function historyBudget(budget: ContextBudget): number {
  // Lab 11.3 ①：每个数都用 tokenCount() 检查（不是非负整数就一行报错点名它）；安全余量没给时用
  // defaultSafetyMargin(contextWindow)。返回 窗口 − 系统提示 − 输出预留 − 安全余量（可以 ≤ 0）。
  throw new Error("Lab 11.3 预算：从最新往回保留整段交互 尚未实现");
}

/**
 * Which of `count` interactions (oldest first) to keep within `available` tokens: the index of the
 * first kept one and the tokens kept. The newest is always kept; older ones join while they fit,
 * and the first that does not fit stops the walk (the kept part is one unbroken suffix).
 * `size(i)` is asked only for interactions that are looked at.
 */
export function keepNewest(
  count: number,
  size: (index: number) => number,
  available: number,
): { first: number; tokens: number } {
  // Lab 11.3 ②：没有交互就返回 { first: 0, tokens: 0 }。最新一段（count − 1）无论多大都保留。
  // Lab 11.3 ③：再往回看更早的一段：加上它仍不超过 available 才保留，否则停下（保留的是连续的后缀，
  // 不跳过大的去拿更早的小的）。只对看过的交互调用 size(i)，返回第一段保留的下标与保留的 token 数。
  throw new Error("Lab 11.3 预算：从最新往回保留整段交互 尚未实现");
}
