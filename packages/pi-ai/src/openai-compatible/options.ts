/** Server differences, see shared/spec openai-compatible.md. Every default works for OpenAI, Ollama, llama.cpp and vLLM. */
export interface OpenAICompatibleCompat {
  /** Role of the system prompt. Default "system"; "developer" only for OpenAI's reasoning models. */
  systemRole?: "system" | "developer";
  /** `content` of an assistant turn that has tool calls and no text. Default "" (some servers reject null). */
  emptyAssistantContent?: "" | null;
  /** Also send the tool's `name` on `role: "tool"` messages, as some servers want. Default false. */
  toolResultName?: boolean;
  /** Ask for token usage with `stream_options.include_usage`. Default true. */
  includeUsage?: boolean;
  /**
   * A request whose `output` is "json" asks for `response_format: {type: "json_object"}` (OpenAI,
   * vLLM, llama.cpp and Ollama honour it). Default true; a server that answers such a request with
   * 400 is asked again without it, and never again by this model.
   */
  jsonOutput?: boolean;
}

export interface OpenAICompatibleOptions {
  /** e.g. http://localhost:11434/v1 (Ollama), https://api.openai.com/v1 */
  baseURL: string;
  model: string;
  /** Default process.env.OPENAI_API_KEY; local servers need none, and then no Authorization header is sent. */
  apiKey?: string;
  headers?: Record<string, string>;
  /** Retries of 408, 409, 429 and 5xx responses and of failed connections. Default 2. */
  maxRetries?: number;
  compat?: OpenAICompatibleCompat;
}

export interface ResolvedOptions {
  baseURL: string;
  model: string;
  apiKey: string | undefined;
  headers: Record<string, string>;
  maxRetries: number;
  compat: Required<OpenAICompatibleCompat>;
}

const DEFAULT_COMPAT: Required<OpenAICompatibleCompat> = {
  systemRole: "system",
  emptyAssistantContent: "",
  toolResultName: false,
  includeUsage: true,
  jsonOutput: true,
};

function isHttpURL(value: unknown): boolean {
  if (typeof value !== "string" || !URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === "http:" || protocol === "https:";
}

/** Fills in the defaults; a missing model or a base URL that is not a URL is a programming error and throws. */
export function resolveOptions(options: OpenAICompatibleOptions): ResolvedOptions {
  if (!isHttpURL(options.baseURL)) {
    throw new TypeError(
      `openAICompatibleModel: baseURL ${JSON.stringify(options.baseURL)} is not an http(s) URL; use e.g. http://localhost:11434/v1`,
    );
  }
  const url = new URL(options.baseURL);
  if (url.username !== "" || url.password !== "") {
    url.username = "";
    url.password = "";
    // The credentials themselves stay out of the message: it may be printed or logged.
    throw new TypeError(
      `openAICompatibleModel: baseURL ${url.href} must not carry a user name or password; pass the key as apiKey (or in headers)`,
    );
  }
  if (typeof options.model !== "string" || options.model.trim() === "") {
    throw new TypeError("openAICompatibleModel: model is empty; name the model the server serves, e.g. llama3.2");
  }
  const maxRetries = options.maxRetries ?? 2;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new RangeError(`openAICompatibleModel: maxRetries must be a whole number ≥ 0, got ${maxRetries}`);
  }
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  return {
    baseURL: options.baseURL,
    model: options.model,
    apiKey: apiKey === "" ? undefined : apiKey,
    headers: { ...options.headers },
    maxRetries,
    compat: { ...DEFAULT_COMPAT, ...options.compat },
  };
}
