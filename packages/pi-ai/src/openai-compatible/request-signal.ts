/**
 * A signal for one request that aborts when `signal` does. `release()` removes the one listener it
 * added to `signal`, so that whatever the request's consumer hangs on its own signal goes with it.
 */
export function requestSignal(signal: AbortSignal | undefined): { signal: AbortSignal | undefined; release(): void } {
  if (signal === undefined) return { signal: undefined, release: () => undefined };
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return { signal: controller.signal, release: () => signal.removeEventListener("abort", onAbort) };
}
