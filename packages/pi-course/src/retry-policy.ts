// Which model failures the Agent retries, and how long it waits before each retry.
// `@pi/ai` reports a failed request as an assistant with stopReason "error" and a one-line
// errorMessage that starts with the HTTP status (`429 Rate limit reached…`, `503 …`) or, for a
// network failure, names it (`Connection error.`, `terminated`).

/** Statuses worth another try: request timeout, conflict (a lock), rate limit, and every 5xx. */
function isTransientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * A server that asks for a longer wait than the provider accepts has refused the request for now:
 * @pi/ai reports it as "429 … (the server asks to retry after 120 s, more than the 60 s this
 * provider waits)". Retrying sooner only asks again what was refused.
 */
const REFUSED_WAIT = /asks to retry after [\d.e+]+ s, more than/i;

const TRANSIENT_WORDING =
  /overloaded|rate.?limit|too many requests|connection|network|terminated|timed? ?out|socket hang up|fetch failed|econnreset|econnrefused|etimedout|eai_again|service unavailable/i;

/**
 * Whether an errorMessage describes a transient failure. A wait the server asked for and the
 * provider refused is not. Otherwise a leading HTTP status decides on its own, so `401 …` or
 * `400 invalid request … timeout` is never retried whatever else it says; without a status, the
 * wording of overloads, rate limits and network failures decides.
 */
export function isTransientError(errorMessage: string | undefined): boolean {
  if (errorMessage === undefined || REFUSED_WAIT.test(errorMessage)) return false;
  const status = /^\s*(\d{3})\b/.exec(errorMessage)?.[1];
  if (status !== undefined) return isTransientStatus(Number(status));
  return TRANSIENT_WORDING.test(errorMessage);
}

export interface RetryOptions {
  /** Retries after the first failure; default 3. */
  maxRetries?: number;
  /** Wait before the first retry, doubled for each later one; default 2000. */
  baseDelayMs?: number;
  /** Cap on any one wait; default 60000. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60_000 };

/**
 * The wait before retry `attempt` (1-based): exponential backoff capped at maxDelayMs, with
 * "equal jitter": half of it fixed and half random, so concurrent clients spread out while
 * every wait stays at least half the backoff.
 */
export function retryDelay(
  attempt: number,
  options: Required<RetryOptions>,
  random: () => number = Math.random,
): number {
  const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(backoff / 2 + (random() * backoff) / 2);
}

/** Fills in the defaults and rejects values that are not whole numbers ≥ 0. */
export function resolveRetryOptions(options: RetryOptions = {}): Required<RetryOptions> {
  const resolved: Required<RetryOptions> = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY.maxRetries,
    baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value < 0) {
      throw new RangeError(`Agent: retry.${name} must be a whole number ≥ 0, got ${String(value)}`);
    }
  }
  return resolved;
}
