// openAICompatibleModel: chapter 01's Model over any OpenAI-compatible Chat Completions endpoint.
import { type Model, type ModelRequest, type ModelStream, type ModelStreamOptions, PushModelStream } from "@pi/core";
import OpenAI, { APIError } from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { ChunkMapper, type StreamEnd } from "./chunk-mapper.js";
import { chunkProblem } from "./chunk-shape.js";
import { describeFailure, type FailurePhase } from "./error-message.js";
import { guardedBodyFetch } from "./guarded-body.js";
import { type OpenAICompatibleOptions, type ResolvedOptions, resolveOptions } from "./options.js";
import { credentialHeaders, secretRedactor, urlCredentials } from "./redact.js";
import { chatCompletionParams } from "./request-params.js";
import { requestSignal } from "./request-signal.js";
import { retryWaitingFetch } from "./retry-fetch.js";
import { StreamProblem } from "./stream-problem.js";
import { untilAborted } from "./until-aborted.js";
import { sendsImages } from "./user-images.js";

/** The SDK insists on a key. Without one, a null Authorization keeps its placeholder out of the request. */
function defaultHeaders(options: ResolvedOptions): Record<string, string | null> {
  const own = Object.keys(options.headers).some((name) => name.toLowerCase() === "authorization");
  return options.apiKey === undefined && !own ? { ...options.headers, Authorization: null } : options.headers;
}

function createClient(options: ResolvedOptions): OpenAI {
  return new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey ?? "none",
    defaultHeaders: defaultHeaders(options),
    maxRetries: options.maxRetries,
    fetch: guardedBodyFetch(retryWaitingFetch(options.maxRetries)),
    // The SDK would print unparsable chunks to the console; the failed turn reports them instead.
    logLevel: "off",
  });
}

/** A throw from this adapter's own conversion code (not from the transport): it fails the stream as it is. */
class OwnCodeFailure {
  constructor(readonly error: unknown) {}
}

function ownCode<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw new OwnCodeFailure(error);
  }
}

/**
 * Sends `params`; a server that answers 400 to a request asking for JSON output (`response_format`)
 * gets the same request without it, and `refused` makes this model stop asking.
 */
async function createCompletion(
  client: OpenAI,
  params: ChatCompletionCreateParamsStreaming,
  signal: AbortSignal | undefined,
  refused: () => void,
) {
  try {
    return await client.chat.completions.create(params, { signal });
  } catch (error) {
    if (params.response_format === undefined || !(error instanceof APIError) || error.status !== 400) throw error;
    refused();
    const { response_format: _, ...plain } = params;
    return client.chat.completions.create(plain, { signal });
  }
}

/** Whether the server answered 400 to a request that sends an image: most text-only models do. */
function imageRefused(error: unknown, params: ChatCompletionCreateParamsStreaming): boolean {
  return error instanceof APIError && error.status === 400 && sendsImages(params);
}

/**
 * Runs one turn into `stream`. Every transport failure (HTTP, connection, a malformed stream) ends
 * the stream with an errored assistant. A bug in the conversion code itself (request messages,
 * chunk shapes, the mapper, the redactor) rejects instead: the consumer sees the bug, not a turn
 * that looks like the server failed (which the Agent would retry).
 */
async function runTurn(
  client: OpenAI,
  options: ResolvedOptions,
  request: ModelRequest,
  signal: AbortSignal | undefined,
  stream: PushModelStream,
): Promise<void> {
  const timestamp = Date.now();
  stream.push({ type: "start" });
  const mapper = new ChunkMapper((event) => stream.push(event));
  let end: StreamEnd = { kind: "complete" };
  let phase: FailurePhase = "request";
  // The SDK adds an abort listener to the signal it is given and never removes it; a turn's signal
  // serves every step of an agent turn, so the SDK gets one of its own, unlinked when the turn ends.
  const params = chatCompletionParams(request, options);
  const own = requestSignal(signal);
  try {
    const pending = createCompletion(client, params, own.signal, () => {
      options.compat.jsonOutput = false;
    });
    const chunks = await untilAborted(pending, signal, (late) => late.controller.abort());
    phase = "stream";
    for await (const chunk of chunks) {
      const problem = ownCode(() => chunkProblem(chunk));
      if (problem !== undefined) throw new StreamProblem(`malformed stream: ${problem}`);
      ownCode(() => mapper.accept(chunk));
    }
  } catch (error) {
    if (error instanceof OwnCodeFailure) throw error.error;
    const redact = secretRedactor([
      options.apiKey,
      ...credentialHeaders(options.headers),
      ...urlCredentials(options.baseURL),
    ]);
    const failure = describeFailure(error, phase, options.baseURL);
    end = {
      kind: "failed",
      message: redact(
        imageRefused(error, params)
          ? `the server refused a request holding an image (${failure}); use a model that accepts image input`
          : failure,
      ),
    };
  } finally {
    own.release();
  }
  // The SDK ends the iteration silently on abort: without this check an aborted turn would look cut off.
  if (signal?.aborted) end = { kind: "aborted" };
  stream.end(mapper.finish(end, timestamp));
}

export function openAICompatibleModel(options: OpenAICompatibleOptions): Model {
  const resolved = resolveOptions(options);
  const client = createClient(resolved);
  return {
    stream(request: ModelRequest, streamOptions?: ModelStreamOptions): ModelStream {
      const stream = new PushModelStream();
      runTurn(client, resolved, request, streamOptions?.signal, stream).catch((error: unknown) => stream.fail(error));
      return stream;
    },
  };
}
