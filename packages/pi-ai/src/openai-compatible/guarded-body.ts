// What the SDK reads of a 200, held to what a chat stream can be. The SDK's SSE reader copies and
// rescans its whole buffer for each network chunk until an event ends, so one 24 MB line took
// 33 s, and a gzip bomb (fetch inflates it before anyone sees a byte) kept a core busy until
// aborted. Here the body reaches the SDK one whole event at a time (so it reads each once), an
// event or a body past its bound ends the turn, and a 200 that is not an event stream at all (an
// HTML page, JSON from a proxy that ignored `stream: true`) is named instead of read as one.
import { StreamProblem } from "./stream-problem.js";

export interface BodyLimits {
  /** Bytes one server-sent event (its `data:` lines) may hold; default 16 MiB. */
  eventBytes: number;
  /** Bytes the whole inflated body may hold; default 256 MiB. */
  bodyBytes: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { eventBytes: 16 * 2 ** 20, bodyBytes: 256 * 2 ** 20 };

const PREVIEW_BYTES = 160;
const LF = 0x0a;
const CR = 0x0d;

const sizeOf = (bytes: number) =>
  bytes >= 2 ** 20 ? `${Math.round((bytes / 2 ** 20) * 100) / 100} MiB` : `${bytes} bytes`;

/** Wraps `fetchImpl` so that every successful response's body is guarded as above. */
export function guardedBodyFetch(fetchImpl: typeof fetch, limits: BodyLimits = DEFAULT_BODY_LIMITS): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (!response.ok || response.body === null) return response;
    const type = response.headers.get("content-type");
    const body = isEventStream(type)
      ? response.body.pipeThrough(wholeEvents(limits, type ?? "no content-type"))
      : failing(await notAStream(response.body, type ?? "no content-type"));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** An event stream, or a server that names no type (some local ones): anything else is not one. */
function isEventStream(type: string | null): boolean {
  return type === null || type.trim() === "" || /event-stream|text\/plain/i.test(type);
}

async function notAStream(body: ReadableStream<Uint8Array>, type: string): Promise<StreamProblem> {
  const reader = body.getReader();
  const seen: Uint8Array[] = [];
  let length = 0;
  while (length < PREVIEW_BYTES) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || value === undefined) break;
    seen.push(value);
    length += value.length;
  }
  void reader.cancel().catch(() => undefined);
  const preview = previewOf(Buffer.concat(seen), length);
  const proxy = /json/i.test(type) ? '; a proxy in between may ignore "stream": true' : "; check the base URL";
  return new StreamProblem(
    `200 not an event stream: the server answered with ${type}, not text/event-stream (${preview})${proxy}`,
  );
}

/** The start of a body as the error shows it: whitespace folded, quoted, cut at PREVIEW_BYTES. */
function previewOf(head: Buffer, length: number): string {
  const text = head.subarray(0, PREVIEW_BYTES).toString("utf8").replace(/\s+/g, " ").trim();
  return text === "" ? "an empty body" : `${JSON.stringify(text)}${length > PREVIEW_BYTES ? "…" : ""}`;
}

/**
 * Labelled an event stream, but no line of it is a data line and it does not begin like one (a
 * comment or a field): an HTML page or a proxy's text sent as text/event-stream. Said at its end;
 * a stream of comments only that ends early is left to "no finish_reason".
 */
function notEventsAfterAll(head: Buffer, length: number, type: string): StreamProblem | undefined {
  const first = head
    .toString("utf8")
    .split(/\r?\n/)
    .find((line) => line.trim() !== "");
  if (first === undefined || /^(:|data|event|id|retry)(:|$)/.test(first)) return undefined;
  return new StreamProblem(
    `200 not an event stream: the server answered with ${type}, but the body holds no data: line (${previewOf(head, length)}); check the base URL`,
  );
}

function failing(problem: StreamProblem): ReadableStream<Uint8Array> {
  return new ReadableStream({ pull: (controller) => controller.error(problem) });
}

/**
 * Passes bytes on only up to the end of the last complete event (a blank line), holding the rest
 * until its event ends, within the bounds.
 */
function wholeEvents(limits: BodyLimits, type: string): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  // Until a data line is seen: the body's first bytes, and the end of the last chunk (a "\ndata"
  // may straddle two chunks).
  let sawData = false;
  let head = Buffer.alloc(0);
  let edge = "\n";
  let heldBytes = 0;
  let total = 0;
  // The last two bytes seen: a blank line may straddle two chunks.
  let recent: number[] = [];
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.length;
      if (!sawData) {
        if (head.length < PREVIEW_BYTES) head = Buffer.concat([head, chunk.subarray(0, PREVIEW_BYTES - head.length)]);
        const text = edge + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
        sawData = /[\r\n]data[:\r\n]/.test(text);
        edge = text.slice(-5);
      }
      if (total > limits.bodyBytes) {
        return controller.error(
          new StreamProblem(
            `stream too large: the response passed the ${sizeOf(limits.bodyBytes)} this provider reads`,
          ),
        );
      }
      const end = lastEventEnd(chunk, recent);
      recent = [...recent, ...chunk.subarray(Math.max(0, chunk.length - 2))].slice(-2);
      if (end === -1) {
        held.push(chunk);
        heldBytes += chunk.length;
      } else {
        controller.enqueue(concat([...held, chunk.subarray(0, end)]));
        held = end < chunk.length ? [chunk.subarray(end)] : [];
        heldBytes = chunk.length - end;
      }
      if (heldBytes > limits.eventBytes) {
        controller.error(
          new StreamProblem(`stream too large: one event passed the ${sizeOf(limits.eventBytes)} this provider reads`),
        );
      }
    },
    flush(controller) {
      const problem = sawData ? undefined : notEventsAfterAll(head, total, type);
      if (problem !== undefined) return controller.error(problem);
      if (heldBytes > 0) controller.enqueue(concat(held));
    },
  });
}

/** The index just past the last blank line ending in `chunk` (LF LF or LF CR LF), or -1. */
function lastEventEnd(chunk: Uint8Array, before: number[]): number {
  const at = (index: number) => (index >= 0 ? chunk[index] : before[before.length + index]);
  for (let index = chunk.length - 1; index >= 0; index -= 1) {
    if (chunk[index] !== LF) continue;
    if (at(index - 1) === LF || (at(index - 1) === CR && at(index - 2) === LF)) return index + 1;
  }
  return -1;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
}
