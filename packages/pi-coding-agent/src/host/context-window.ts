// Which context window tiny-pi compacts for, and where that number came from: --context-window N
// if given, else what the server reports for the model in its /v1/models list (vLLM's
// `max_model_len`, or `context_length` / `context_window` / `max_context_length` as OpenRouter,
// Groq or LM Studio name it), else none: then nothing is compacted automatically (/compact still
// works). --reserve N keeps tokens free for the answer; by default a quarter of the window, at
// most 16,384 (upstream Pi's default).

export interface WindowInForce {
  tokens: number;
  reserve: number;
  /** Where `tokens` came from, as the start line says it. */
  source: string;
}

/** The fields a /v1/models entry may carry its served window in, in the order they are trusted. */
const WINDOW_FIELDS = ["max_model_len", "context_length", "context_window", "max_context_length"] as const;

/** How long the start waits for /v1/models before going on without it. */
const PROBE_MS = 5000;

export const DEFAULT_RESERVE_CAP = 16_384;

/** What the command line says about the window: --context-window, --reserve, and the endpoint to ask. */
export interface WindowChoice {
  contextWindow?: number;
  reserve?: number;
  endpoint?: { baseURL: string; model: string; apiKey?: string };
}

export async function windowInForce(args: WindowChoice): Promise<WindowInForce | undefined> {
  if (args.contextWindow !== undefined) return withReserve(args.contextWindow, "--context-window", args.reserve);
  if (args.endpoint === undefined) return undefined;
  const reported = await serverWindow(args.endpoint);
  if (reported === undefined) return undefined;
  return withReserve(reported.tokens, `服务器 /v1/models 报告的 ${reported.field}`, args.reserve);
}

function withReserve(tokens: number, source: string, reserve: number | undefined): WindowInForce {
  // A --reserve not below a window the server reported still leaves a quarter of it for the context.
  const fits = reserve !== undefined && reserve < tokens ? reserve : undefined;
  return { tokens, reserve: fits ?? Math.min(DEFAULT_RESERVE_CAP, Math.floor(tokens / 4)), source };
}

/** The one start line naming the window in force, or saying there is none. */
export function windowLine(window: WindowInForce | undefined): string {
  if (window === undefined) {
    return "上下文窗口未知（没有 --context-window，服务器也没有报告）：不会自动压缩；用 --context-window N 指定，REPL 里 /compact 随时可用。";
  }
  return `上下文窗口 ${window.tokens} token（${window.source}），其中 ${window.reserve} 留给回答；放不下时自动压缩较早的对话。`;
}

/** The window the server reports for `model`, or undefined when it reports none (or does not answer). */
export async function serverWindow(
  endpoint: NonNullable<WindowChoice["endpoint"]>,
): Promise<{ tokens: number; field: string } | undefined> {
  const apiKey = endpoint.apiKey ?? process.env.OPENAI_API_KEY;
  try {
    const response = await fetch(`${endpoint.baseURL.replace(/\/+$/, "")}/models`, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(PROBE_MS),
    });
    if (!response.ok) return undefined;
    return windowOfModel(await response.json(), endpoint.model);
  } catch {
    return undefined;
  }
}

/** The entry of `list` (an OpenAI model list) whose id is `model`, and its window field. */
export function windowOfModel(list: unknown, model: string): { tokens: number; field: string } | undefined {
  const data = (list as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  const entry = data.find((item) => (item as { id?: unknown } | null)?.id === model) as
    | Record<string, unknown>
    | undefined;
  if (entry === undefined) return undefined;
  for (const field of WINDOW_FIELDS) {
    const value = entry[field];
    if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return { tokens: value, field };
  }
  return undefined;
}
