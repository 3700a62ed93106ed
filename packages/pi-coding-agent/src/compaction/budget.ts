// The budget: how many tokens of history fit in one request. The window holds the system prompt,
// the history and the model's answer, so the history gets the window minus the system prompt,
// minus the reserve kept for the output, minus a margin for the estimate's error. History is kept
// in whole interactions from the newest backwards; the newest is kept even when it alone is over,
// because a request without the user's latest message is not the conversation any more.

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
  const window = tokenCount(budget.contextWindow, "contextWindow");
  const margin = budget.safetyMarginTokens ?? defaultSafetyMargin(window);
  return (
    window -
    tokenCount(budget.systemPromptTokens, "systemPromptTokens") -
    tokenCount(budget.reserveTokens, "reserveTokens") -
    tokenCount(margin, "safetyMarginTokens")
  );
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
  if (count === 0) return { first: 0, tokens: 0 };
  let first = count - 1;
  let tokens = size(first);
  while (first > 0) {
    const older = size(first - 1);
    if (tokens + older > available) break;
    first -= 1;
    tokens += older;
  }
  return { first, tokens };
}
