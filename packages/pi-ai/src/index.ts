export { openAICompatibleModel } from "./openai-compatible/model.js";
export type { OpenAICompatibleCompat, OpenAICompatibleOptions } from "./openai-compatible/options.js";
export { REDACTED, type Redact, secretRedactor, urlCredentials } from "./openai-compatible/redact.js";
