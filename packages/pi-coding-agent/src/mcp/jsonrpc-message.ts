// Tells the three JSON-RPC 2.0 message kinds apart by their fields alone. They are mutually
// exclusive: a request has a method and an id, a notification a method and no id, a response an id
// and exactly one of result/error and no method. Anything else is `invalid`, with the reason, so the
// connection can raise an error event and go on instead of crashing on a hostile server's line.

export type JsonRpcId = string | number;

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcMessage =
  | { kind: "request"; id: JsonRpcId; method: string; params?: unknown }
  | { kind: "notification"; method: string; params?: unknown }
  | { kind: "response"; id: JsonRpcId; result: unknown }
  | { kind: "error-response"; id: JsonRpcId | null; error: JsonRpcError }
  | { kind: "invalid"; reason: string };

function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

export function classifyMessage(value: unknown): JsonRpcMessage {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { kind: "invalid", reason: "not a JSON object" };
  }
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return { kind: "invalid", reason: 'missing "jsonrpc": "2.0"' };
  const hasId = "id" in message;
  const hasMethod = "method" in message;
  const hasResult = "result" in message;
  const hasError = "error" in message;
  if (hasMethod) {
    if (typeof message.method !== "string") return { kind: "invalid", reason: "method is not a string" };
    if (hasResult || hasError) return { kind: "invalid", reason: "a message with a method also carries result/error" };
    if (!hasId) return { kind: "notification", method: message.method, params: message.params };
    if (!isId(message.id)) return { kind: "invalid", reason: "request id is neither a string nor an integer" };
    return { kind: "request", id: message.id, method: message.method, params: message.params };
  }
  if (!hasId) return { kind: "invalid", reason: "neither a method nor an id" };
  if (hasResult === hasError) return { kind: "invalid", reason: "a response needs exactly one of result and error" };
  if (hasResult) {
    if (!isId(message.id)) return { kind: "invalid", reason: "response id is neither a string nor an integer" };
    return { kind: "response", id: message.id, result: message.result };
  }
  const error = message.error as Record<string, unknown> | null;
  if (
    error === null ||
    typeof error !== "object" ||
    typeof error.code !== "number" ||
    typeof error.message !== "string"
  ) {
    return { kind: "invalid", reason: "error is not {code, message}" };
  }
  if (message.id !== null && !isId(message.id))
    return { kind: "invalid", reason: "response id is neither a string nor an integer" };
  return {
    kind: "error-response",
    id: message.id as JsonRpcId | null,
    error: { code: error.code, message: error.message, ...("data" in error ? { data: error.data } : {}) },
  };
}
