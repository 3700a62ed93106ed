// Which model answers: a real OpenAI-compatible endpoint (--base-url/--model, key from --api-key
// or OPENAI_API_KEY), or with neither the embedded scripted model of the chapter's README round
// trip. The provider (and the openai SDK under it) is loaded only when an endpoint is named.
import type { Model } from "@pi/core";
import type { ModelIdentity } from "../host/pi-fields.js";
import type { Redact } from "../host/redacting.js";
import type { CliArgs } from "./args.js";
import { readmeRoundTripModel } from "./embedded-model.js";
import type { ProviderCode } from "./learner-code.js";

export interface ModelChoice {
  model: Model;
  /** The endpoint's base URL as shown (credentials in its query redacted); absent for the embedded model. */
  baseURL?: string;
  /** How the REPL banner names it. */
  label: string;
  /** Takes the key out of a text tiny-pi shows or saves. */
  redact: Redact;
  /** How the session file names who answered (Pi's api, provider and model fields). */
  identity: ModelIdentity;
}

/** Pi's name for the Chat Completions API. */
const CHAT_COMPLETIONS_API = "openai-completions";

/** `provider`: the learner's openAICompatibleModel (chapter 05) instead of the course's; tiny-pi's own redaction stays the course's. */
export async function selectModel(endpoint: CliArgs["endpoint"], provider?: ProviderCode): Promise<ModelChoice> {
  if (endpoint === undefined)
    return {
      model: readmeRoundTripModel(),
      label: "内置脚本模型",
      redact: (text) => text,
      identity: { api: "scripted", provider: "tiny-pi", model: "readme-round-trip" },
    };
  const course = await import("@pi/ai");
  const { secretRedactor, urlCredentials } = course;
  const openAICompatibleModel = provider ?? course.openAICompatibleModel;
  const { baseURL, model, apiKey } = endpoint;
  // The provider's own default: without --api-key, OPENAI_API_KEY; and a key in the URL's query.
  const redact = secretRedactor([apiKey ?? process.env.OPENAI_API_KEY, ...urlCredentials(baseURL)]);
  return {
    model: openAICompatibleModel(apiKey === undefined ? { baseURL, model } : { baseURL, model, apiKey }),
    // Shown, never requested: the model above has the real URL.
    baseURL: redact(baseURL),
    label: `${model} @ ${redact(baseURL)}`,
    redact,
    identity: { api: CHAT_COMPLETIONS_API, provider: "openai-compatible", model },
  };
}
