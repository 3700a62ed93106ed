// Transport failures → the one-line `errorMessage` of the failed assistant.
//
// The message's start is stable. @pi/course's `isTransientError` (the Agent's retry rule) reads it:
//   "<status> …"             an HTTP error; the status alone decides (408, 409, 429 and 5xx retry)
//   "connection error: …"    no response (refused, reset or DNS) after the SDK's retries: retried
//   "connection timed out…"  no response in time: retried
//   "stream interrupted: …"  the connection dropped after a 200, mid-stream: retried
//   "stream error: …"        the server's own error object inside the stream: retried only when
//                            its wording says overload or rate limit
//   "200 not an event stream: …"  a 200 whose content-type is not an event stream: not retried
//                            (the status decides), it names the type and the start of the body
// Not retried: "malformed stream: …" (including a `data: null`), "stream too large: …" (an event
// past 16 MiB or a body past 256 MiB), "finish_reason …", "no finish_reason: …", and a tool call
// whose arguments are not a JSON object ("the arguments of tool call …").
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { MAX_RETRY_WAIT_MS, REFUSED_WAIT_HEADER } from "./retry-fetch.js";
import { StreamProblem } from "./stream-problem.js";

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 400 ? `${line.slice(0, 399)}…` : line;
}

/** The innermost cause, e.g. an ECONNREFUSED error under the SDK's "Connection error." */
function rootCause(error: unknown): Error | undefined {
  let found: Error | undefined;
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    found = cause;
    cause = cause.cause;
  }
  return found;
}

function codeOf(error: Error | undefined): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : error?.message;
}

function hint(status: number): string {
  if (status === 401 || status === 403) return " (check the API key)";
  if (status === 404) return " (check the base URL and the model name)";
  return "";
}

function httpMessage(error: APIError, status: number): string {
  const refused = error.headers?.get(REFUSED_WAIT_HEADER);
  const wait =
    refused == null
      ? ""
      : ` (the server asks to retry after ${Math.round(Number(refused) / 1000)} s, more than the ${MAX_RETRY_WAIT_MS / 1000} s this provider waits)`;
  return `${error.message}${hint(status)}${wait}`;
}

/** Where the failure happened: before the response (request) or while reading the 200's body (stream). */
export type FailurePhase = "request" | "stream";

export function describeFailure(error: unknown, phase: FailurePhase, baseURL: string): string {
  if (error instanceof StreamProblem) return oneLine(error.message);
  if (error instanceof APIConnectionTimeoutError) return oneLine(`connection timed out: no response from ${baseURL}`);
  if (error instanceof APIConnectionError) {
    const cause = codeOf(rootCause(error));
    return oneLine(`connection error: cannot reach ${baseURL}${cause ? ` (${cause})` : ""}; is the server running?`);
  }
  if (error instanceof APIError) {
    if (typeof error.status === "number") return oneLine(httpMessage(error, error.status));
    return oneLine(`stream error: ${error.message}`);
  }
  if (error instanceof SyntaxError) return oneLine(`malformed stream: a chunk is not valid JSON (${error.message})`);
  const message = error instanceof Error ? error.message : String(error);
  if (phase === "stream") {
    const cause = rootCause(error)?.message;
    return oneLine(`stream interrupted: ${message}${cause && cause !== message ? ` (${cause})` : ""}`);
  }
  return oneLine(`request failed: ${message}`);
}
