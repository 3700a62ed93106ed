// Which models answer: the catalogue of a run and the id selected in it. With --base-url/--model,
// a one-model catalogue; with --model alone, the user's models.json (Pi's format, in tiny-pi's
// home); with neither, the embedded scripted model of the chapter's README round trip. A resumed
// branch that names a model of the catalogue continues on it unless --model says otherwise. The
// provider (and the openai SDK under it) is loaded only when an endpoint is named.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { openAICompatibleModel } from "@pi/ai";
import type { Model } from "@pi/core";
import {
  CHAT_COMPLETIONS_API,
  DEFAULT_CONTEXT_WINDOW,
  type FallbackNote,
  lookupModel,
  type ModelCatalogue,
  type PhysicalModel,
} from "../models/index.js";
import { UsageError } from "./errors.js";
import { courseModelsCode, ModelSwitch, type ModelsCode } from "./model-switch.js";
import type { Redact } from "./redacting.js";
import type { ModelsChoice } from "./run-config.js";

/** The provider name tiny-pi gives --base-url's endpoint, as Pi's models.json would name one. */
export const BASE_URL_PROVIDER = "openai-compatible";
const EMBEDDED: PhysicalModel = {
  id: "tiny-pi/readme-round-trip",
  provider: "tiny-pi",
  modelId: "readme-round-trip",
  api: "scripted",
  baseUrl: "",
  contextWindow: DEFAULT_CONTEXT_WINDOW,
};

export interface ModelChoice {
  models: ModelSwitch;
  /** False for the embedded model: no endpoint is named. */
  remote: boolean;
  /** Takes every key out of a text tiny-pi shows or saves. */
  redact: Redact;
}

/** The models.json tiny-pi reads: `models.json` in tiny-pi's home. */
export function modelsFile(home: string): string {
  return path.join(home, "models.json");
}

/** A run's catalogue, before the session is opened: every refusal (a bad file, an unknown --model) comes from here. */
export interface LoadedModels {
  catalogue: ModelCatalogue;
  /** Each provider's key as written (models.json: a literal or an environment variable's name). */
  keys: ReadonlyMap<string, string>;
  /** The id --model picked; absent: the branch's model, else the embedded one. */
  wanted?: string;
}

/** The catalogue --base-url/--model or models.json describe; undefined: neither (the embedded model). `code`: whose catalogue. */
export function loadModels(
  args: ModelsChoice,
  home: string,
  code: ModelsCode = courseModelsCode,
): LoadedModels | undefined {
  const { endpoint } = args;
  if (endpoint !== undefined) {
    const { baseURL, model, apiKey } = endpoint;
    const physical: PhysicalModel = {
      id: `${BASE_URL_PROVIDER}/${model}`,
      provider: BASE_URL_PROVIDER,
      modelId: model,
      api: CHAT_COMPLETIONS_API,
      baseUrl: baseURL,
      contextWindow: DEFAULT_CONTEXT_WINDOW,
    };
    const keys = new Map(apiKey === undefined ? [] : [[BASE_URL_PROVIDER, apiKey] as const]);
    return { catalogue: code.createModelCatalogue([BASE_URL_PROVIDER], [physical]), keys, wanted: physical.id };
  }
  const file = modelsFile(home);
  const wanted = args.modelName;
  if (!existsSync(file)) {
    if (wanted === undefined) return undefined;
    throw new UsageError(
      `--model ${wanted}：没有 --base-url，也没有 ${file}：给出 --base-url，或按 Pi 的 models.json 格式写好这个文件。`,
    );
  }
  try {
    const { catalogue, apiKeys } = code.parseModelsJson(readFileSync(file, "utf8"), file);
    const picked = wanted === undefined ? undefined : lookupModel(catalogue, wanted, `--model ${wanted}：${file} 里`);
    return { catalogue, keys: apiKeys, ...(picked !== undefined ? { wanted: picked } : {}) };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * The selection of `loaded`: --model's, else `branchModel` (the model in force on a resumed
 * branch) when the catalogue has it, else the embedded model (`embedded`). `provider`: the learner's
 * openAICompatibleModel (chapter 05) instead of the course's; `code`: whose routing and branch
 * state (chapter 18).
 */
export async function chooseModel(
  loaded: LoadedModels | undefined,
  branchModel: string | undefined,
  onFallback: (note: FallbackNote) => void,
  embedded: () => Model,
  provider?: typeof openAICompatibleModel,
  code: ModelsCode = courseModelsCode,
): Promise<ModelChoice> {
  const selection =
    loaded?.wanted ??
    (branchModel !== undefined && loaded?.catalogue.physical.has(branchModel) ? branchModel : undefined);
  if (loaded === undefined || selection === undefined) return embeddedChoice(onFallback, embedded, code);
  return remoteChoice(loaded.catalogue, loaded.keys, selection, onFallback, code, provider);
}

function embeddedChoice(
  onFallback: (note: FallbackNote) => void,
  embedded: () => Model,
  code: ModelsCode,
): ModelChoice {
  const catalogue = code.createModelCatalogue([EMBEDDED.provider], [EMBEDDED]);
  const model = embedded();
  return {
    models: new ModelSwitch(catalogue, () => model, EMBEDDED.id, onFallback, code),
    remote: false,
    redact: (text) => text,
  };
}

/** A key as Pi's models.json writes it: the name of an environment variable that is set, or the key itself. */
function resolveKey(written: string | undefined): string | undefined {
  if (written === undefined) return undefined;
  if (written.startsWith("!")) {
    throw new UsageError(
      `models.json 的 apiKey "${written.split(" ")[0]}…" 是命令：tiny-pi 不运行命令取密钥，请改写成环境变量名或密钥本身。`,
    );
  }
  return process.env[written] ?? written;
}

async function remoteChoice(
  catalogue: ModelCatalogue,
  written: ReadonlyMap<string, string>,
  selection: string,
  onFallback: (note: FallbackNote) => void,
  code: ModelsCode,
  provider?: typeof openAICompatibleModel,
): Promise<ModelChoice> {
  const course = await import("@pi/ai");
  const { secretRedactor, urlCredentials } = course;
  const talkTo = provider ?? course.openAICompatibleModel;
  const keys = new Map([...written].map(([name, key]) => [name, resolveKey(key)] as const));
  // The provider's own default: without a key, OPENAI_API_KEY; and a key in a URL's query.
  const urls = [...catalogue.physical.values()].flatMap((model) => urlCredentials(model.baseUrl));
  const redact = secretRedactor([...keys.values(), process.env.OPENAI_API_KEY, ...urls]);
  const connect = (model: PhysicalModel): Model => {
    const apiKey = keys.get(model.provider);
    const options = { baseURL: model.baseUrl, model: model.modelId };
    return talkTo(apiKey === undefined ? options : { ...options, apiKey });
  };
  return { models: new ModelSwitch(catalogue, connect, selection, onFallback, code), remote: true, redact };
}
