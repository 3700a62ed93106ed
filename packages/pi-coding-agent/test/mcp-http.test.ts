// The Streamable HTTP transport against a small MCP server on 127.0.0.1: JSON and server-sent-event
// answers, the session id and protocol version on every request after initialize, 202 for
// notifications, an HTTP error as the request's failure, and a DELETE that ends the session on close.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { McpClient, StreamableHttpTransport } from "../src/mcp/index.js";

interface Seen {
  method: string;
  rpc?: string;
  session?: string;
  version?: string;
}

async function startHttpServer() {
  const seen: Seen[] = [];
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const header = (name: string) => request.headers[name] as string | undefined;
    const message =
      body === "" ? {} : (JSON.parse(body) as { id?: number; method?: string; params?: { name?: string } });
    seen.push({
      method: request.method ?? "",
      ...(message.method ? { rpc: message.method } : {}),
      ...(header("mcp-session-id") ? { session: header("mcp-session-id") } : {}),
      ...(header("mcp-protocol-version") ? { version: header("mcp-protocol-version") } : {}),
    });
    if (request.method === "DELETE") return void response.writeHead(200).end();
    const answer = (result: unknown) => JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
    if (message.method === "initialize") {
      response.writeHead(200, { "content-type": "application/json", "mcp-session-id": "session-7" });
      return void response.end(
        answer({
          protocolVersion: "2025-06-18",
          capabilities: { tools: {} },
          serverInfo: { name: "http", version: "1" },
        }),
      );
    }
    if (message.id === undefined) return void response.writeHead(202).end();
    if (message.method === "tools/list") {
      // An event stream: a comment, a progress notification, then the answer split across writes.
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(": keep-alive\n\n");
      response.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: {} })}\n\n`);
      const event = `event: message\ndata: ${answer({ tools: [{ name: "add", inputSchema: { type: "object" } }] })}\n\n`;
      response.write(event.slice(0, 20));
      setTimeout(() => response.end(event.slice(20)), 20);
      return;
    }
    if (message.params?.name === "add") {
      response.writeHead(200, { "content-type": "application/json" });
      return void response.end(answer({ content: [{ type: "text", text: "5" }] }));
    }
    response.writeHead(500, { "content-type": "text/plain" }).end("server broke");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test("Streamable HTTP：JSON 与事件流的回答都能收到；initialize 之后每个请求带会话 id 与协议版本；关闭时 DELETE", async () => {
  const server = await startHttpServer();
  try {
    const notes: string[] = [];
    const client = await McpClient.connect(new StreamableHttpTransport({ url: server.url }), {
      onNotification: (method) => notes.push(method),
    });
    assert.equal(client.server.protocolVersion, "2025-06-18");
    assert.deepEqual(
      (await client.listTools()).map((tool) => tool.name),
      ["add"],
      "事件流里分几次写出的回答应拼起来",
    );
    assert.deepEqual(notes, ["notifications/progress"], "事件流里的通知应交给 onNotification");
    assert.equal((await client.callTool("add", { a: 2, b: 3 })).text, "5");
    await assert.rejects(client.callTool("broken"), /HTTP 500: server broke/, "HTTP 错误应成为这个请求的失败");
    await client.close();
    const later = server.seen.slice(1);
    assert.equal(server.seen[0]?.session, undefined, "initialize 时还没有会话 id");
    assert.deepEqual(
      later.map((request) => [request.rpc ?? request.method, request.session, request.version]),
      [
        ["notifications/initialized", "session-7", "2025-06-18"],
        ["tools/list", "session-7", "2025-06-18"],
        ["tools/call", "session-7", "2025-06-18"],
        ["tools/call", "session-7", "2025-06-18"],
        ["DELETE", "session-7", "2025-06-18"],
      ],
    );
  } finally {
    await server.close();
  }
});
