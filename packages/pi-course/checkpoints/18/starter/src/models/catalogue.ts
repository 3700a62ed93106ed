// Checkpoint 18 · 学习脚手架：模型目录。类型、physicalId()、knownModelIds()、lookupModel() 已经写好。Lab 18.1
// 的几处先抛出“尚未实现”的临时错误。按编号完成 `// Lab 18.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="目录" packages/pi-coding-agent/dist/test/18-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
// Chapter 18's catalogue: the physical models a provider serves and the virtual models that route
// to them, under ids no two of which are equal. A physical model's id is `provider/modelId` (Pi's
// names for it); a virtual model's id is a name of its own. Resolving a virtual model's route asks
// the route for physical ids and refuses, in one line each, what cannot be served: another virtual
// model, an id the catalogue does not hold, a provider no one registered, a route that throws.
import type { Message } from "@pi/core";

/** Dollars per million tokens, as Pi's models.json writes them. */
export interface ModelPrices {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A model one provider serves at one endpoint. */
export interface PhysicalModel {
  /** `provider/modelId`. */
  id: string;
  provider: string;
  modelId: string;
  /** Pi's name of the wire protocol, e.g. "openai-completions". */
  api: string;
  baseUrl: string;
  contextWindow: number;
  maxTokens?: number;
  cost?: ModelPrices;
}

/** Why a request is made: the user's prompt, a continuation after tool results, a compaction summary. */
export type RequestReason = "prompt" | "continuation" | "compaction";

export interface RouteRequest {
  reason: RequestReason;
  /** The physical id that answered last on this branch (errored and aborted replies do not count). */
  previous: string | undefined;
  /** The request's messages: read them, never change them. */
  messages: readonly Message[];
}

/** The physical id that serves a request, or several: the first, then each next one when the one before it cannot be reached. */
export type Route = (request: RouteRequest) => string | readonly string[];

export interface VirtualModel {
  id: string;
  route: Route;
  /** How the start line names what it routes to. */
  describe: string;
}

export interface ModelCatalogue {
  /** Providers that can serve requests. */
  providers: ReadonlySet<string>;
  physical: ReadonlyMap<string, PhysicalModel>;
  virtual: ReadonlyMap<string, VirtualModel>;
}

/** The id Pi's `provider` and `modelId` name. */
export function physicalId(provider: string, modelId: string): string {
  return `${provider}/${modelId}`;
}

/** A catalogue of `physical` and `virtual` models; a repeated id or a model of an unregistered provider is refused in one line. */
export function createModelCatalogue(
  providers: Iterable<string>,
  physical: readonly PhysicalModel[],
  virtual: readonly VirtualModel[] = [],
): ModelCatalogue {
  // Lab 18.1 ①：registered = new Set(providers)。每个物理模型：provider 不在 registered 里 →
  //   Error(`模型 ${model.id} 的 provider ${model.provider} 没有注册：先注册这个 provider，再把它的模型放进目录`)；
  //   model.id 不等于 physicalId(model.provider, model.modelId) →
  //   Error(`模型 ${model.id} 的 id 应当是 ${physicalId(model.provider, model.modelId)}（provider/modelId）`)；
  //   已经收过这个 id → Error(`模型 id ${model.id} 在目录里出现了两次：每个 id 只能有一个模型`)。
  // Lab 18.1 ②：每个虚拟模型：id 已被物理模型或另一个虚拟模型占用 →
  //   Error(`虚拟模型 ${model.id} 的 id 已经被占用：物理模型和虚拟模型的 id 不能相同`)。
  //   返回 { providers: registered, physical: 按 id 的 Map, virtual: 按 id 的 Map }（Map 保持放入的顺序）。
  throw new Error("Lab 18.1 目录 尚未实现");
}

/** Every id the catalogue knows, sorted: physical, then virtual. */
export function knownModelIds(catalogue: ModelCatalogue): string[] {
  return [...[...catalogue.physical.keys()].sort(), ...[...catalogue.virtual.keys()].sort()];
}

/** The physical model `id` names, or one line naming why no request can go to it. */
export function physicalModel(catalogue: ModelCatalogue, id: string, via: string): PhysicalModel {
  // Lab 18.1 ③：一次只查一处，按这个顺序，各一行：
  //   id 是虚拟模型 → Error(`虚拟模型 ${via} 路由到了虚拟模型 ${id}：路由只能指向物理模型（虚拟到虚拟会无穷转发）`)；
  //   是物理模型 → 返回它；
  //   id 的 provider 部分（第一个 / 之前，非空）没有注册 →
  //     Error(`虚拟模型 ${via} 路由到 ${id}，但 provider ${provider} 没有注册：在目录里注册它，或改路由`)；
  //   否则 → Error(`虚拟模型 ${via} 路由到未知的模型 ${JSON.stringify(id)}：目录里有 ${knownModelIds(catalogue).join("、")}`)。
  throw new Error("Lab 18.1 目录 尚未实现");
}

/** The physical models that serve `request` through virtual model `virtualId`, in the order to try them. */
export function resolveRoute(catalogue: ModelCatalogue, virtualId: string, request: RouteRequest): PhysicalModel[] {
  // Lab 18.1 ④：virtual = catalogue.virtual.get(virtualId)；没有 → Error(`${virtualId} 不是目录里的虚拟模型`)。
  //   调用 virtual.route(request)；它抛错 → 取错误消息的第一行 cause，
  //   Error(`虚拟模型 ${virtualId} 的路由出错（${cause}）：这个请求没有发出`)（一行，不带原来的堆栈）。
  //   返回值是一个 id → [physicalModel(catalogue, id, virtualId)]；是数组 → 空数组或有不是字符串的元素 →
  //   Error(`虚拟模型 ${virtualId} 的路由没有给出物理模型 id：路由要返回一个 id，或按顺序排好的几个 id`)，
  //   否则每个 id 都用 physicalModel() 解析，顺序不变。
  throw new Error("Lab 18.1 目录 尚未实现");
}

/** The catalogue id `name` picks: an id, or a physical model's own id when one provider alone has it; else one line listing the known ids. */
export function lookupModel(catalogue: ModelCatalogue, name: string, source: string): string {
  if (catalogue.physical.has(name) || catalogue.virtual.has(name)) return name;
  const matches = [...catalogue.physical.values()].filter((model) => model.modelId === name);
  if (matches.length === 1) return (matches[0] as PhysicalModel).id;
  const which =
    matches.length > 1 ? `有 ${matches.length} 个 provider 都有 ${name}，请写成 provider/${name}` : `没有 ${name}`;
  return refuse(`${source}${which}：已知的模型有 ${knownModelIds(catalogue).join("、")}`);
}

function refuse(line: string): never {
  throw new Error(line);
}
