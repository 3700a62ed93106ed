// The `fetch` the SDK calls. The SDK retries 408/409/429/5xx and honours retry-after, but with no cap
// on the wait and with a wait that ignores the abort signal. Here the wait happens instead, before
// the SDK sees the response: abortable, and refused when the server asks for more than 60 s.

export const MAX_RETRY_WAIT_MS = 60_000;
/** Set on a response whose requested wait was refused; the error message reports it. */
export const REFUSED_WAIT_HEADER = "x-pi-refused-retry-wait-ms";

/** The SDK's own rule, including the server's `x-should-retry` override. */
function isRetryable(response: Response): boolean {
  const override = response.headers.get("x-should-retry");
  if (override === "true") return true;
  if (override === "false") return false;
  const status = response.status;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The wait the server asks for, in ms: `retry-after-ms` wins over `retry-after` (seconds or an HTTP date). */
export function requestedWaitMs(headers: Headers): number | undefined {
  const millis = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(millis) && millis > 0) return millis;
  const after = headers.get("retry-after");
  if (after === null) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The SDK's default back-off when the server names no wait: 0.5 s doubling to 8 s, minus up to 25% jitter. */
function backoffMs(retryCount: number): number {
  return Math.min(0.5 * 2 ** retryCount, 8) * (1 - Math.random() * 0.25) * 1000;
}

function sleep(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function withHeaders(response: Response, change: (headers: Headers) => void): Response {
  const headers = new Headers(response.headers);
  change(headers);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function retryWaitingFetch(maxRetries: number, fetchImpl: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (response.ok || !isRetryable(response)) return response;
    const retryCount = Number(new Headers(init?.headers).get("x-stainless-retry-count") ?? "0");
    if (retryCount >= maxRetries) return response;
    const requested = requestedWaitMs(response.headers);
    if (requested !== undefined && requested > MAX_RETRY_WAIT_MS) {
      return withHeaders(response, (headers) => {
        headers.set("x-should-retry", "false");
        headers.set(REFUSED_WAIT_HEADER, String(Math.round(requested)));
      });
    }
    await response.body?.cancel();
    await sleep(requested ?? backoffMs(retryCount), init?.signal);
    // The wait is over: the SDK retries at once.
    return withHeaders(new Response(null, response), (headers) => {
      headers.delete("retry-after");
      headers.set("retry-after-ms", "0");
    });
  };
}
