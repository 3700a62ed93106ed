// Checkpoint 17 · 学习脚手架：JSON-RPC 消息的三类。类型与 isId() 已经写好。Lab 17.1 的几处先抛出“尚未实现”的临时错误。按编号完成
// `// Lab 17.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="消息" packages/pi-coding-agent/dist/test/17-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
  // Lab 17.1 ①：只看字段分出三类，互斥；别的都是 { kind: "invalid", reason }（说出原因，不抛异常）：
  //   不是对象（null、数组、字符串）→ invalid；jsonrpc 不是 "2.0" → invalid。
  //   有 method：method 不是字符串 → invalid；同时带 result 或 error → invalid；没有 id → notification；
  //     id 不是字符串或整数（isId）→ invalid；否则 request。
  //   没有 method 也没有 id → invalid；result 与 error 不是恰好一个（都有或都没有）→ invalid。
  //   有 result：id 不是 isId → invalid，否则 response（看字段在不在，result 为 null 也是响应）。
  //   有 error：error 不是 {code: number, message: string} → invalid；id 是 null 或 isId → error-response
  //     （error 只留 code、message，有 data 时带上 data），否则 invalid。
  throw new Error("Lab 17.1 消息 尚未实现");
}
