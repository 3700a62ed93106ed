// Checkpoint 18 · 学习脚手架：按请求路由。markerOf()（每个物理模型一个标记函数）、refusedStream()、catalogueModel()
// 已经写好。Lab 18.2 的几处先抛出“尚未实现”的临时错误。按编号完成 `// Lab 18.2` 注释描述的动作，删除临时错误，
// 然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="路由" packages/pi-coding-agent/dist/test/18-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
  // Lab 18.2 ①：最新一条消息是工具结果（role "toolResult"）→ "continuation"，否则 → "prompt"。
  //   （"compaction" 不从消息里读：摘要模型在 RoutedModelOptions.reason 里说。）
  throw new Error("Lab 18.2 路由 尚未实现");
}

/**
 * `stream` itself, its final message marked with who answered. The mark is made by a reaction
 * registered now, before the caller can ask for result(): it runs first, so the caller's await
 * sees the marked message and waits no extra step (a wrapping `then` would add one to every request).
 */
export function answeredStream(stream: ModelStream, model: PhysicalModel): ModelStream {
  // Lab 18.2 ②：返回 stream 本身，不要包一层新的流，也不要 `await`：现在就在 stream.result() 上登记
  //   markerOf(model)（失败时 ignore），它先于调用者的 await 运行，调用者拿到的最终消息已经带着 api、provider、model，
  //   而 loop 的事件与微任务一步也不多（第 09 章的顺序不变）。
  throw new Error("Lab 18.2 路由 尚未实现");
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
      // Lab 18.2 ③：问路由：resolveRoute(catalogue, virtualId, { reason, previous, messages: request.messages })，
      //   reason = options.reason ?? requestReason(request.messages)；
      //   previous = newestChoice(request.messages) ?? options.previous?.()（请求的全部消息里最新的有效回答优先，
      //   不只是这一轮的；出错、中止的回答不算；消息里一条也没有才用分支上生效的模型）。
      //   解析抛错 → return refusedStream(error.message)：失败在协议之内，像 provider 报告失败那样，不抛出 stream()。
      // Lab 18.2 ④：只有一个模型 → answeredStream(options.connect(它).stream(request, streamOptions), 它)：
      //   request 原样交出去，一个字也不改。几个模型 → fallbackStream(每个模型一个
      //   { model, open: () => options.connect(model).stream(request, streamOptions) }, streamOptions?.signal, options.onFallback)。
      throw new Error("Lab 18.2 路由 尚未实现");
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
