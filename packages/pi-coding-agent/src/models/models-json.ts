// A models.json in Pi's format (`~/.pi/agent/models.json`): `{"providers": {name: {baseUrl, api,
// apiKey, models: [{id, contextWindow, maxTokens, cost…}]}}}`, so a user's Pi configuration works
// when copied. tiny-pi's virtual models live in the same file under `virtualModels`, a key Pi's
// schema lets through: `{"virtualModels": {name: {model, compaction?, fallback?}}}`. Fields Pi has
// and tiny-pi does not use (compat, headers, name, reasoning…) are accepted and left alone.
import { type BuiltInRoute, builtInVirtualModel } from "./built-in-routes.js";
import {
  createModelCatalogue,
  type ModelCatalogue,
  type ModelPrices,
  type PhysicalModel,
  physicalId,
  physicalModel,
} from "./catalogue.js";

/** The one wire protocol tiny-pi's provider speaks. */
export const CHAT_COMPLETIONS_API = "openai-completions";
/** Pi's default context window for a model that names none. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

export interface ModelsFile {
  catalogue: ModelCatalogue;
  /** Each provider's key as written (a literal, or the name of an environment variable); absent: none. */
  apiKeys: ReadonlyMap<string, string>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function positive(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) throw new Error(`${where} 要是正数`);
  return value;
}

function prices(value: unknown, where: string): ModelPrices | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value))
    throw new Error(`${where} 要是对象 {input, output, cacheRead, cacheWrite}（每百万 token 的美元价）`);
  const price = (field: string) => {
    const number = value[field] ?? 0;
    if (typeof number !== "number" || !Number.isFinite(number) || number < 0)
      throw new Error(`${where}.${field} 要是非负数`);
    return number;
  };
  return {
    input: price("input"),
    output: price("output"),
    cacheRead: price("cacheRead"),
    cacheWrite: price("cacheWrite"),
  };
}

function text(value: unknown, where: string): string {
  if (typeof value !== "string" || value === "") throw new Error(`${where} 要是非空字符串`);
  return value;
}

/** The catalogue `text` (a models.json's content) describes, or one line naming what is wrong (prefixed with `file`). */
export function parseModelsJson(source: string, file: string): ModelsFile {
  try {
    return readModels(JSON.parse(source));
  } catch (error) {
    const cause = String((error as Error)?.message ?? error).split("\n")[0];
    throw new Error(`${file}：${cause}`);
  }
}

function readModels(parsed: unknown): ModelsFile {
  if (!isObject(parsed) || !isObject(parsed.providers))
    throw new Error('要有 "providers" 对象（Pi 的 models.json 格式）');
  const providers: string[] = [];
  const physical: PhysicalModel[] = [];
  const apiKeys = new Map<string, string>();
  for (const [provider, config] of Object.entries(parsed.providers)) {
    const where = `providers.${provider}`;
    if (!isObject(config)) throw new Error(`${where} 要是对象`);
    if (provider.includes("/")) throw new Error(`${where}：provider 名里不能有 /`);
    const models = config.models ?? [];
    if (!Array.isArray(models)) throw new Error(`${where}.models 要是数组`);
    // A provider tiny-pi cannot speak to (another api, no baseUrl) is not registered: its models are not offered.
    const api = config.api ?? CHAT_COMPLETIONS_API;
    if (api !== CHAT_COMPLETIONS_API || typeof config.baseUrl !== "string") continue;
    providers.push(provider);
    if (config.apiKey !== undefined) apiKeys.set(provider, text(config.apiKey, `${where}.apiKey`));
    for (const [index, model] of models.entries()) {
      const at = `${where}.models[${index}]`;
      if (!isObject(model)) throw new Error(`${at} 要是对象`);
      const modelId = text(model.id, `${at}.id`);
      if ((model.api ?? api) !== CHAT_COMPLETIONS_API) continue;
      const maxTokens = positive(model.maxTokens, `${at}.maxTokens`);
      const cost = prices(model.cost, `${at}.cost`);
      physical.push({
        id: physicalId(provider, modelId),
        provider,
        modelId,
        api: CHAT_COMPLETIONS_API,
        baseUrl: typeof model.baseUrl === "string" ? model.baseUrl : config.baseUrl,
        contextWindow: positive(model.contextWindow, `${at}.contextWindow`) ?? DEFAULT_CONTEXT_WINDOW,
        ...(maxTokens !== undefined ? { maxTokens } : {}),
        ...(cost !== undefined ? { cost } : {}),
      });
    }
  }
  if (parsed.virtualModels !== undefined && !isObject(parsed.virtualModels)) throw new Error("virtualModels 要是对象");
  const specs = Object.entries(isObject(parsed.virtualModels) ? parsed.virtualModels : {}).map(
    ([name, spec]) => [name, routeSpec(spec, `virtualModels.${name}`)] as const,
  );
  const catalogue = createModelCatalogue(
    providers,
    physical,
    specs.map(([name, spec]) => builtInVirtualModel(name, spec)),
  );
  // A route naming what cannot serve is refused now, not at its first request.
  for (const [name, spec] of specs) {
    for (const id of [
      spec.model,
      ...(spec.compaction !== undefined ? [spec.compaction] : []),
      ...(spec.fallback ?? []),
    ]) {
      physicalModel(catalogue, id, name);
    }
  }
  return { catalogue, apiKeys };
}

function routeSpec(spec: unknown, where: string): BuiltInRoute {
  if (!isObject(spec)) throw new Error(`${where} 要是对象 {model, compaction?, fallback?}`);
  const fallback =
    spec.fallback === undefined ? [] : typeof spec.fallback === "string" ? [spec.fallback] : spec.fallback;
  if (!Array.isArray(fallback)) throw new Error(`${where}.fallback 要是模型 id 或 id 数组`);
  return {
    model: text(spec.model, `${where}.model`),
    ...(spec.compaction !== undefined ? { compaction: text(spec.compaction, `${where}.compaction`) } : {}),
    fallback: fallback.map((id, index) => text(id, `${where}.fallback[${index}]`)),
  };
}
