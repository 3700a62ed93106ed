// Compaction's summary against the stream shapes real local servers send (shared/spec
// openai-compatible.md): the request asks for JSON output (`response_format`), a server that
// honours it answers with the bare object, one that refuses it (400) is asked again without it,
// and a chatty answer holding exactly one fenced JSON object still compacts. Two fenced objects,
// or none, stay the one-line failure. Each server is a real socket on 127.0.0.1.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { openAICompatibleModel } from "@pi/ai";
import { userMessage } from "@pi/core";
import { CompactionError } from "../src/host/compaction-error.js";
import { summarise } from "../src/host/summarise.js";
import { structured } from "./compaction-fixture.js";

const summary = structured();
const json = JSON.stringify(summary, null, 2);
/** What a chat model says when nobody holds it to JSON: a sentence, one fence, a sentence. */
const chatty = `Here is the summary of the conversation:\n\n\`\`\`json\n${json}\n\`\`\`\n\nLet me know if you need anything else.`;

type Shape = (content: string[]) => string[];
type Body = { response_format?: { type: string }; [key: string]: unknown };

/** vLLM: a role chunk with "", content chunks, finish with stop_reason, then a usage chunk with choices []. */
const vllm: Shape = (content) => {
  const base = {
    id: "chatcmpl-8c1f",
    object: "chat.completion.chunk",
    created: 1764518400,
    model: "Qwen/Qwen2.5-7B-Instruct",
  };
  return [
    {
      ...base,
      choices: [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }],
    },
    ...content.map((piece) => ({
      ...base,
      choices: [{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }],
    })),
    {
      ...base,
      choices: [{ index: 0, delta: { content: "" }, logprobs: null, finish_reason: "stop", stop_reason: null }],
    },
    { ...base, choices: [], usage: { prompt_tokens: 412, total_tokens: 530, completion_tokens: 118 } },
  ].map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
};

/** llama.cpp's llama-server: content null on the role chunk, usage and timings on the finishing chunk. */
const llamaCpp: Shape = (content) => {
  const base = {
    created: 1764518400,
    id: "chatcmpl-Qm3",
    model: "gpt-3.5-turbo",
    system_fingerprint: "b5120-2f7b",
    object: "chat.completion.chunk",
  };
  return [
    { choices: [{ finish_reason: null, index: 0, delta: { role: "assistant", content: null } }], ...base },
    ...content.map((piece) => ({ choices: [{ finish_reason: null, index: 0, delta: { content: piece } }], ...base })),
    {
      choices: [{ finish_reason: "stop", index: 0, delta: {} }],
      ...base,
      usage: { completion_tokens: 118, prompt_tokens: 412, total_tokens: 530 },
      timings: { prompt_n: 412, prompt_ms: 801.2, predicted_n: 118, predicted_ms: 2310.4 },
    },
  ].map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
};

/** Ollama: the role repeated on every delta, finish with an empty content, then a usage chunk. */
const ollama: Shape = (content) => {
  const base = {
    id: "chatcmpl-512",
    object: "chat.completion.chunk",
    created: 1764518400,
    model: "llama3.2",
    system_fingerprint: "fp_ollama",
  };
  return [
    ...content.map((piece) => ({
      ...base,
      choices: [{ index: 0, delta: { role: "assistant", content: piece }, finish_reason: null }],
    })),
    { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: "stop" }] },
    { ...base, choices: [], usage: { prompt_tokens: 412, completion_tokens: 118, total_tokens: 530 } },
  ].map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
};

/** `text` in small pieces, split anywhere, as a model streams it. */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += 7) out.push(text.slice(at, at + 7));
  return out;
}

/**
 * A server on 127.0.0.1 streaming in `shape`: what a model says when held to JSON output (the bare
 * object) and what it says when not (`free`); with `refusesJson`, a request with response_format is a 400.
 */
async function withServer(
  options: { shape: Shape; free: string; refusesJson?: boolean },
  use: (baseURL: string, requests: Body[]) => Promise<void>,
): Promise<void> {
  const requests: Body[] = [];
  const server = createServer(async (request, response: ServerResponse) => {
    let text = "";
    for await (const chunk of request) text += chunk;
    const body = JSON.parse(text) as Body;
    requests.push(body);
    if (options.refusesJson && body.response_format !== undefined) {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          error: { message: "response_format is not supported", type: "invalid_request_error", code: null },
        }),
      );
      return;
    }
    const answer = body.response_format?.type === "json_object" ? json : options.free;
    response.writeHead(200, { "content-type": "text/event-stream" });
    for (const line of options.shape(pieces(answer))) response.write(line);
    response.end("data: [DONE]\n\n");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const input = { previous: undefined, dropped: [userMessage("What is the project called?")] };

for (const [name, shape] of [
  ["vLLM", vllm],
  ["llama.cpp", llamaCpp],
  ["Ollama", ollama],
] as const) {
  test(`压缩摘要（${name} 的流）：请求带 response_format json_object，服务器给出裸 JSON，摘要通过`, async () => {
    await withServer({ shape, free: "Sure! The user asked what the project is called." }, async (baseURL, requests) => {
      const model = openAICompatibleModel({ baseURL, model: "local" });
      assert.deepEqual(await summarise(model, input), summary);
      assert.deepEqual(
        requests[0]?.response_format,
        { type: "json_object" },
        "摘要请求要求 JSON 输出：支持它的服务器（vLLM、llama.cpp、Ollama）只会给出 JSON",
      );
    });
  });
}

test("压缩摘要：服务器拒绝 response_format（400）时，不带它再问一次；回答里恰好一个 JSON 代码块也能通过；之后不再要求", async () => {
  await withServer({ shape: ollama, free: chatty, refusesJson: true }, async (baseURL, requests) => {
    const model = openAICompatibleModel({ baseURL, model: "local" });
    assert.deepEqual(await summarise(model, input), summary, "一句话 + 一个 ```json 代码块 + 一句话：取代码块里的对象");
    assert.deepEqual(await summarise(model, input), summary);
    assert.deepEqual(
      requests.map((body) => body.response_format?.type ?? "none"),
      ["json_object", "none", "none"],
      "400 之后同一请求不带 response_format 重发一次，这个模型之后不再要求",
    );
  });
});

test("压缩摘要：两个代码块、或者没有 JSON，保持一行失败", async () => {
  const two = `${chatty}\n\nOr shorter:\n\n\`\`\`json\n${JSON.stringify(summary)}\n\`\`\``;
  for (const free of [two, "Sure! Here is a summary: the user asked things."]) {
    await withServer({ shape: vllm, free, refusesJson: true }, async (baseURL) => {
      const model = openAICompatibleModel({ baseURL, model: "local" });
      await assert.rejects(summarise(model, input), (error: unknown) => {
        assert.ok(error instanceof CompactionError);
        assert.match(error.message, /^上下文压缩失败：模型的摘要不是 JSON（开头是 .*）：会话没有改动/);
        assert.equal(error.message.split("\n").length, 1, "一行");
        return true;
      });
    });
  }
});
