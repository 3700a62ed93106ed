// The chaos test's model: a Chat Completions server on 127.0.0.1 whose answer is a function of the
// request alone, so a request sent again after a crash gets the same kind of answer. The task:
// read two files, write one, run three `bash` steps (each appends its step to counter.txt and its
// call id to an audit file outside the workspace), then a final streamed answer. Every turn streams
// text in small deltas first. A step whose result came back "Interrupted" is done again, a bash step
// then checking the counter first (what a careful agent does when a call may or may not have run).
import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export const STEPS = 6;
const PROSE =
  "这一步先说明要做什么，再调用工具；文字分成很多小片段流出来，好让崩溃落在流的中间。" +
  "每一轮的文字都比一批部分输出（64 个字符）长，所以流到一半被杀时已有部分回答提交。";

function chunk(delta: object, finish: string | null = null): string {
  const body = {
    id: "chaos",
    object: "chat.completion.chunk",
    created: 1764518400,
    model: "m",
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** Which step the request is at and whether its last attempt was interrupted. */
export function progress(messages: WireMessage[]): { step: number; retry: boolean } {
  let step = 0;
  let retry = false;
  for (const [index, message] of messages.entries()) {
    if (message.role !== "assistant" || (message.tool_calls ?? []).length === 0) continue;
    const ids = new Set((message.tool_calls ?? []).map((call) => call.id));
    const results = messages
      .slice(index + 1)
      .filter((next) => next.role === "tool" && ids.has(next.tool_call_id ?? ""));
    const interrupted = results.some((result) => String(result.content ?? "").startsWith("Interrupted"));
    if (interrupted) retry = true;
    else {
      step += 1;
      retry = false;
    }
  }
  return { step, retry };
}

function callsFor(step: number, retry: boolean, id: () => string, audit: string) {
  if (step === 0) {
    return [
      { id: id(), name: "read", args: { path: "a.txt" } },
      { id: id(), name: "read", args: { path: "b.txt" } },
    ];
  }
  if (step === 1) return [{ id: id(), name: "write", args: { path: "out.txt", content: "a 和 b 读过了\n" } }];
  const n = step - 1;
  const callId = id();
  const record = `echo ${callId} >> '${audit}'`;
  const command = retry
    ? `${record}; grep -qx step-${n} counter.txt 2>/dev/null || echo step-${n} >> counter.txt`
    : `${record}; echo step-${n} >> counter.txt`;
  return [{ id: callId, name: "bash", args: { command } }];
}

export interface TaskModel {
  baseURL: string;
  close(): Promise<void>;
}

export async function startTaskModel(audit: string): Promise<TaskModel> {
  let next = 0;
  const id = () => {
    next += 1;
    return `call_${next}`;
  };
  const answer = (messages: WireMessage[], response: ServerResponse) => {
    const { step, retry } = progress(messages);
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    response.write(chunk({ role: "assistant", content: "" }));
    const text =
      step >= STEPS - 1 ? `完成：counter.txt 有三行，out.txt 已写好。${PROSE}` : `第 ${step + 1} 步。${PROSE}`;
    for (let at = 0; at < text.length; at += 4) response.write(chunk({ content: text.slice(at, at + 4) }));
    if (step >= STEPS - 1) {
      response.write(chunk({}, "stop"));
      response.end("data: [DONE]\n\n");
      return;
    }
    callsFor(step, retry, id, audit).forEach((call, index) => {
      response.write(
        chunk({
          tool_calls: [
            {
              index,
              id: call.id,
              type: "function",
              function: { name: call.name, arguments: JSON.stringify(call.args) },
            },
          ],
        }),
      );
    });
    response.write(chunk({}, "tool_calls"));
    response.end("data: [DONE]\n\n");
  };
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const part of request) body += part;
    if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
      response.writeHead(404).end();
      return;
    }
    answer((JSON.parse(body) as { messages: WireMessage[] }).messages, response);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
