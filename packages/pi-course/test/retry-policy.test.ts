import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_RETRY, isTransientError, resolveRetryOptions, retryDelay } from "../src/retry-policy.js";

// errorMessage lines as @pi/ai reports them (HTTP status first, or the network failure's own words).
const table: [errorMessage: string | undefined, transient: boolean][] = [
  ["408 Request Timeout", true],
  ["409 Conflict: another request holds the lock", true],
  ["429 Rate limit reached for requests", true],
  ["500 Internal Server Error", true],
  ["502 Bad Gateway", true],
  ["503 Service Unavailable", true],
  ["504 Gateway Timeout", true],
  ["529 Overloaded", true],
  ["Connection error.", true],
  ["terminated", true],
  ["Request timed out.", true],
  ["network error while reading the stream", true],
  ["overloaded_error: Overloaded", true],
  ["Rate limit exceeded, slow down", true],
  ["read ECONNRESET", true],
  ["fetch failed", true],
  [
    "429 Rate limit reached (the server asks to retry after 1000000000 s, more than the 60 s this provider waits)",
    false,
  ],
  ["503 Service Unavailable (the server asks to retry after 120 s, more than the 60 s this provider waits)", false],
  ["400 Invalid request: messages must not be empty", false],
  ["400 invalid value for 'timeout'", false],
  ["401 Incorrect API key provided", false],
  ["403 Forbidden", false],
  ["404 The model `nope` does not exist", false],
  ["422 Unprocessable Entity", false],
  ["Request was aborted.", false],
  ["model output could not be parsed", false],
  ["", false],
  [undefined, false],
];

test("重试策略：isTransientError 只把 408/409/429/5xx 与过载、限流、网络失败算作瞬时错误；服务器要求的等待被拒绝时不算", () => {
  for (const [errorMessage, transient] of table) {
    assert.equal(isTransientError(errorMessage), transient, `${JSON.stringify(errorMessage)} → ${transient}`);
  }
});

test("重试策略：retryDelay 指数增长、有上限，抖动让每次等待落在退避的一半到全部之间", () => {
  const options = { maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 5000 };
  const delays = (random: number) => [1, 2, 3, 4, 5].map((attempt) => retryDelay(attempt, options, () => random));
  assert.deepEqual(delays(0), [500, 1000, 2000, 2500, 2500], "random 为 0 时是退避的一半");
  assert.deepEqual(delays(0.999999), [1000, 2000, 4000, 5000, 5000], "random 接近 1 时是整个退避，且不超过上限");
});

test("重试策略：默认 3 次、2000 ms、60000 ms；不是非负整数的设置是一行 RangeError", () => {
  assert.deepEqual(resolveRetryOptions(), DEFAULT_RETRY);
  assert.deepEqual(DEFAULT_RETRY, { maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60_000 });
  assert.deepEqual(resolveRetryOptions({ maxRetries: 0, baseDelayMs: undefined }), { ...DEFAULT_RETRY, maxRetries: 0 });
  assert.throws(
    () => resolveRetryOptions({ maxRetries: -1 }),
    /^RangeError: Agent: retry\.maxRetries must be a whole number ≥ 0, got -1$/,
  );
  assert.throws(() => resolveRetryOptions({ baseDelayMs: 1.5 }), RangeError);
});
