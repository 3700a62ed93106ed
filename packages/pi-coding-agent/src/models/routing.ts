// Routing a request: a virtual model is a Model whose stream() asks the route, for every request,
// which physical model serves it, with the request's reason and the branch's previous choice, then
// hands the request on unchanged. The chosen model's reply carries Pi's `api`, `provider` and
// `model`: that is how the branch records who answered. All of it happens inside the synchronous
// stream() call, so routing adds no step to the loop; with no route the loop talks to the physical
// model directly (connectModel), and nothing here runs at all.
import {
  type AssistantMessage,
  assistantMessage,
  type Message,
  type Model,
  type ModelRequest,
  type ModelStream,
  type ModelStreamOptions,
  PushModelStream,
} from "@pi/core";
import { answererFields, newestChoice } from "./answered.js";
import { type ModelCatalogue, type PhysicalModel, type RequestReason, resolveRoute } from "./catalogue.js";
import { type FallbackNote, fallbackStream } from "./fallback.js";

/** A physical model's connection (the provider's Model for its endpoint). */
export type Connect = (model: PhysicalModel) => Model;

/** Why this request is made: a continuation when the newest message is a tool result, otherwise the user's prompt. */
export function requestReason(messages: readonly Message[]): RequestReason {
  return messages.at(-1)?.role === "toolResult" ? "continuation" : "prompt";
}

/**
 * `stream` itself, its final message marked with who answered. The mark is made by a reaction
 * registered now, before the caller can ask for result(): it runs first, so the caller's await
 * sees the marked message and waits no extra step (a wrapping `then` would add one to every request).
 */
export function answeredStream(stream: ModelStream, model: PhysicalModel): ModelStream {
  stream.result().then(markerOf(model), ignore);
  return stream;
}

function ignore(): undefined {
  return undefined;
}

/** One marking function per physical model: a request allocates none. */
const markers = new WeakMap<PhysicalModel, (message: AssistantMessage) => void>();

function markerOf(model: PhysicalModel): (message: AssistantMessage) => void {
  let marker = markers.get(model);
  if (marker === undefined) {
    const fields = answererFields(model);
    marker = (message) => {
      Object.assign(message, fields);
    };
    markers.set(model, marker);
  }
  return marker;
}

export interface RoutedModelOptions {
  connect: Connect;
  /** Every request of this Model has this reason (the compaction summariser's); absent: read from the messages. */
  reason?: RequestReason;
  /** The branch's choice before this turn's replies (the model in force on the branch). */
  previous?: () => string | undefined;
  /** Told when a model could not be reached and the next one serves the request. */
  onFallback?: (note: FallbackNote) => void;
}

/** Virtual model `virtualId` of `catalogue` as a Model: each request routed on its own. */
export function routedModel(catalogue: ModelCatalogue, virtualId: string, options: RoutedModelOptions): Model {
  return {
    stream(request: ModelRequest, streamOptions?: ModelStreamOptions): ModelStream {
      let chosen: PhysicalModel[];
      try {
        chosen = resolveRoute(catalogue, virtualId, {
          reason: options.reason ?? requestReason(request.messages),
          previous: newestChoice(request.messages) ?? options.previous?.(),
          messages: request.messages,
        });
      } catch (error) {
        return refusedStream((error as Error).message);
      }
      const [first] = chosen as [PhysicalModel];
      if (chosen.length === 1) return answeredStream(options.connect(first).stream(request, streamOptions), first);
      return fallbackStream(
        chosen.map((model) => ({ model, open: () => options.connect(model).stream(request, streamOptions) })),
        streamOptions?.signal,
        options.onFallback,
      );
    },
  };
}

/** A request no model serves: a failed reply (inside the protocol, as a provider reports its failures) saying why. */
function refusedStream(line: string): ModelStream {
  const stream = new PushModelStream();
  stream.push({ type: "start" });
  stream.push({ type: "error", reason: "error", message: line });
  stream.end({ ...assistantMessage([], "error"), errorMessage: line });
  return stream;
}

/**
 * Catalogue id `id` as a Model: a physical model's own connection (no routing: the loop talks to
 * the provider exactly as in chapter 09), or a virtual model routing each request.
 */
export function catalogueModel(catalogue: ModelCatalogue, id: string, options: RoutedModelOptions): Model {
  const physical = catalogue.physical.get(id);
  return physical !== undefined ? options.connect(physical) : routedModel(catalogue, id, options);
}
