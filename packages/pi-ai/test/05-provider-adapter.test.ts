// Checkpoint 05's focused tests: the learner's OpenAI-compatible adapter against a real HTTP server
// on 127.0.0.1 that replays recorded wire bytes (test/fixtures) and records every request.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:net";
import { after, before, test } from "node:test";
import { type OpenAICompatibleCompat, openAICompatibleModel } from "@pi/ai";
import type { Message, ModelEvent, ModelRequest } from "@pi/core";
import { mapFinishReason } from "../src/openai-compatible/finish-reason.js";
import { credentialHeaders, urlCredentials } from "../src/openai-compatible/redact.js";
import { fixtureBytes } from "./support/fixtures.js";
import { HANG_GUARD_MS } from "./support/hang-guard.js";
import { LoopbackServer, type ReceivedRequest, resetAfter, sse, stallAfter } from "./support/loopback-server.js";
import { README_REQUEST, runTurn } from "./support/turns.js";

const KEY = "sk-course-05-7Hq2Lw9Zx4";
const GUARD = { timeout: HANG_GUARD_MS };

let server: LoopbackServer;
before(async () => {
  server = await LoopbackServer.start();
});
after(() => server.close());

function model(baseURL = server.baseURL, compat?: OpenAICompatibleCompat) {
  return openAICompatibleModel({
    baseURL,
    model: "test-model",
    apiKey: KEY,
    maxRetries: 0,
    ...(compat === undefined ? {} : { compat }),
  });
}

async function replay(body: Buffer | string) {
  server.reply(sse(Buffer.isBuffer(body) ? body : Buffer.from(body)));
  return runTurn(model());
}

/** What reached the server for `request`: the reply stalls, the test takes the request and cancels the turn. */
async function sentRequest(request: ModelRequest, compat?: OpenAICompatibleCompat): Promise<ReceivedRequest> {
  server.reply(stallAfter(Buffer.from(": waiting\n\n")));
  const controller = new AbortController();
  const stream = model(server.baseURL, compat).stream(request, { signal: controller.signal });
  const received = await Promise.race([server.nextRequest(), stream.result().then(() => undefined)]);
  controller.abort();
  await stream.result().catch(() => undefined);
  assert.ok(received, "请求发到了服务器：这一轮在发出请求之前就结束了");
  return received;
}

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, "close");
  return port;
}

const of = <T extends ModelEvent["type"]>(events: ModelEvent[], type: T) =>
  events.filter((event): event is Extract<ModelEvent, { type: T }> => event.type === type);

/**
 * The turn's terminal event. The chapter's rule is exactly one (`done` or `error`) and it comes last,
 * so every terminal is counted, not only the last event looked at.
 */
function terminal(events: ModelEvent[]): ModelEvent | undefined {
  const terminals = events.filter((event) => event.type === "done" || event.type === "error");
  const shown = terminals.map((event) => `${event.type} ${event.reason}`).join("、");
  assert.equal(terminals.length, 1, `一轮恰好一个终态（done 或 error），这一轮有 ${terminals.length} 个：${shown}`);
  assert.equal(events.at(-1), terminals[0], "终态是这一轮的最后一个事件，之后不再有事件");
  return terminals[0];
}

const call = (id: string, path: string, extra: Record<string, unknown> = {}) => ({
  type: "toolCall" as const,
  id,
  name: "read",
  arguments: { path, ...extra },
});

const TRANSCRIPT: Message[] = [
  {
    role: "user",
    content: [
      { type: "text", text: "Read README.md" },
      { type: "text", text: "then answer." },
    ],
    timestamp: 1,
  },
  {
    role: "assistant",
    content: [{ type: "text", text: "Reading it." }, call("call-1", "README.md")],
    stopReason: "toolUse",
    timestamp: 2,
  },
  {
    role: "toolResult",
    toolCallId: "call-1",
    toolName: "read",
    content: [{ type: "text", text: "# pi-course" }],
    details: { lines: 1 },
    isError: false,
    timestamp: 3,
  },
  { role: "assistant", content: [], stopReason: "aborted", errorMessage: "aborted", timestamp: 4 },
  { role: "user", content: "And the licence?", timestamp: 5 },
];

/**
 * TRANSCRIPT with its timestamps running backwards (a clock that was set back), kept apart so a conversion
 * that writes into the messages it is given, sorting them included, cannot hide it.
 */
const BACKWARDS: Message[] = structuredClone(TRANSCRIPT).map((message, index) => ({
  ...message,
  timestamp: TRANSCRIPT.length - index,
}));

test("出站转换：system、user、带调用的 assistant 与工具结果按线上角色发出，空的 assistant 不发", GUARD, async () => {
  const received = await sentRequest({ ...README_REQUEST, messages: structuredClone(TRANSCRIPT) });
  assert.equal(
    `${received.method} ${received.url}`,
    "POST /v1/chat/completions",
    "请求发往 {baseURL}/chat/completions",
  );
  const sent = received.body.messages;
  assert.deepEqual(
    sent[0],
    { role: "system", content: "You are a coding agent." },
    "systemPrompt 变成 { role: compat.systemRole（默认 system）, content }，放在最前面",
  );
  assert.deepEqual(
    sent[1],
    { role: "user", content: "Read README.md\nthen answer." },
    "user 的 TextContent[] 用换行连接成一个字符串",
  );
  assert.deepEqual(
    sent[2],
    {
      role: "assistant",
      content: "Reading it.",
      tool_calls: [{ id: "call-1", type: "function", function: { name: "read", arguments: '{"path":"README.md"}' } }],
    },
    "有文字也有调用的 assistant：文字照样放进 content（emptyAssistantContent 只给没有文字的），调用的 arguments 是 JSON 字符串",
  );
  assert.equal(
    "name" in (sent[3] ?? {}),
    false,
    "compat.toolResultName 为 true 时才给工具结果加上 name：默认（没写，即 false）不带 name",
  );
  assert.deepEqual(
    sent[3],
    { role: "tool", tool_call_id: "call-1", content: "# pi-course" },
    "toolResult 变成 { role: tool, tool_call_id, content }：details、isError、timestamp 不上线",
  );
  assert.deepEqual(
    sent.map((message: { role: string }) => message.role),
    ["system", "user", "assistant", "tool", "user"],
    "没有文字也没有调用的 assistant（取消或失败的一轮）不发：工具结果之后紧接着下一条 user",
  );
  assert.deepEqual(
    received.body.messages,
    [
      { role: "system", content: "You are a coding agent." },
      { role: "user", content: "Read README.md\nthen answer." },
      {
        role: "assistant",
        content: "Reading it.",
        tool_calls: [{ id: "call-1", type: "function", function: { name: "read", arguments: '{"path":"README.md"}' } }],
      },
      { role: "tool", tool_call_id: "call-1", content: "# pi-course" },
      { role: "user", content: "And the licence?" },
    ],
    "systemPrompt 变成 role system；多段文字用换行连接；调用的 arguments 是 JSON 字符串；toolResult 变成 role tool 配 tool_call_id；没有文字也没有调用的 assistant 不发",
  );
  assert.deepEqual(
    received.body.tools,
    [{ type: "function", function: README_REQUEST.tools[0] }],
    "每个工具定义包成 { type: function, function: { name, description, parameters } }",
  );

  const callOnly: Message[] = [
    { role: "assistant", content: [call("call-2", "LICENSE")], stopReason: "toolUse", timestamp: 6 },
  ];
  const wire = { id: "call-2", type: "function", function: { name: "read", arguments: '{"path":"LICENSE"}' } };
  for (const emptyAssistantContent of ["", null] as const) {
    const sent = await sentRequest({ systemPrompt: "", messages: callOnly, tools: [] }, { emptyAssistantContent });
    assert.equal(sent.body.messages[0]?.role, "assistant", 'systemPrompt 为空字符串（""）时不发 system 消息');
    assert.deepEqual(
      sent.body.messages,
      [{ role: "assistant", content: emptyAssistantContent, tool_calls: [wire] }],
      `有调用没文字的 assistant：content 用 compat.emptyAssistantContent（这里是 ${JSON.stringify(emptyAssistantContent)}），不写死 "" 或 null`,
    );
  }

  const blankText: Message[] = [
    { role: "assistant", content: [{ type: "text", text: "" }], stopReason: "stop", timestamp: 6 },
    {
      role: "assistant",
      content: [{ type: "text", text: "" }, call("call-2", "LICENSE")],
      stopReason: "toolUse",
      timestamp: 7,
    },
  ];
  const blankSent = await sentRequest(
    { systemPrompt: "", messages: blankText, tools: [] },
    { emptyAssistantContent: null },
  );
  assert.deepEqual(
    blankSent.body.messages,
    [{ role: "assistant", content: null, tool_calls: [wire] }],
    '“有文字”看连起来的文字是不是 ""，不看有没有 text 块：只有 text("") 的 assistant 不发，text("") 加调用时 content 用 compat.emptyAssistantContent',
  );

  const twoTexts: Message[] = [
    {
      role: "assistant",
      content: [
        { type: "text", text: "Reading it." },
        { type: "text", text: "Then LICENSE." },
      ],
      stopReason: "stop",
      timestamp: 2,
    },
    structuredClone(TRANSCRIPT[2]) as Message,
    {
      role: "toolResult",
      toolCallId: "call-3",
      toolName: "read",
      content: [
        { type: "text", text: "ENOENT: LICENSE" },
        { type: "text", text: "no such file" },
      ],
      details: { code: "ENOENT" },
      isError: true,
      timestamp: 8,
    },
  ];
  const compatSent = await sentRequest(
    { systemPrompt: "Be brief.", messages: twoTexts, tools: [] },
    { systemRole: "developer", toolResultName: true },
  );
  // The name is compat.toolResultName's rule, observed by the assertion below: left out here so it names that rule.
  const { name: _name, ...failedWire } = compatSent.body.messages[3] ?? {};
  assert.deepEqual(
    failedWire,
    { role: "tool", tool_call_id: "call-3", content: "ENOENT: LICENSE\nno such file" },
    "失败的工具结果也只发 role、tool_call_id、content（多段文字用换行连接）：isError 与 details 不上线",
  );
  assert.deepEqual(
    compatSent.body.messages,
    [
      { role: "developer", content: "Be brief." },
      { role: "assistant", content: "Reading it.\nThen LICENSE." },
      { role: "tool", tool_call_id: "call-1", content: "# pi-course", name: "read" },
      { role: "tool", tool_call_id: "call-3", content: "ENOENT: LICENSE\nno such file", name: "read" },
    ],
    "system 的角色是 compat.systemRole；assistant 的多个 text 块用换行连成 content；compat.toolResultName 为 true 时工具结果带上 name",
  );
});

test("出站转换只发生在边界：canonical 消息原样不变，API key 只在 Authorization 头里，请求体里没有", GUARD, async () => {
  const request: ModelRequest = { systemPrompt: "", messages: structuredClone(BACKWARDS), tools: [] };
  const received = await sentRequest(request);
  assert.deepEqual(
    request.messages,
    BACKWARDS,
    "转换不改调用者的 canonical 消息（不 sort、不 splice、不改字段）：线上角色只存在于请求体里",
  );
  assert.deepEqual(
    received.body.messages.map((message: { role: string }) => message.role),
    ["user", "assistant", "tool", "user"],
    "按 transcript 的顺序转换每条消息，不按时间戳排序：这份 transcript 的时间戳是倒着的",
  );
  assert.equal(received.body.messages[0]?.role, "user", "systemPrompt 为空时不发 system 消息");
  assert.equal("tools" in received.body, false, "没有工具时不发 tools 字段（有的服务器拒绝 tools: []）");
  assert.equal(received.headers.authorization, `Bearer ${KEY}`, "API key 只放在 Authorization 头里");
  assert.equal(JSON.stringify(received.body).includes(KEY), false, "请求体里没有 API key");
});

test(
  "密钥：401 的正文多次回显密钥、Bearer 凭据与凭据头：errorMessage 以 401 开头，只有 [redacted]",
  GUARD,
  async () => {
    const token = "tok-91827364";
    server.reply(async (response) => {
      response.writeHead(401, { "content-type": "application/json" });
      const message = `Incorrect API key provided: ${KEY} (again: ${KEY}). Header was "Bearer ${KEY}", x-api-key ${token}.`;
      response.end(JSON.stringify({ error: { message } }));
    });
    const headers = { "x-api-key": token };
    const withHeader = openAICompatibleModel({
      baseURL: server.baseURL,
      model: "m",
      apiKey: KEY,
      headers,
      maxRetries: 0,
    });
    const { events, assistant } = await runTurn(withHeader);
    assert.ok(
      assistant.errorMessage?.includes('"Bearer [redacted]"'),
      `凭据换成 $1 [redacted]：保留 Bearer/Basic 这个词，只换掉后面的凭据；得到 ${assistant.errorMessage}`,
    );
    assert.equal(
      assistant.errorMessage,
      '401 Incorrect API key provided: [redacted] (again: [redacted]). Header was "Bearer [redacted]", x-api-key [redacted]. (check the API key)',
      "密钥的每一处、Bearer 凭据与凭据头的值都换成 [redacted]，状态码仍在开头",
    );
    assert.equal(assistant.stopReason, "error", "HTTP 错误以 error 结束这一轮");
    assert.deepEqual(assistant.content, [], 'partial()：还没收到文字时 content 是空的，this.text 为 "" 时不放 text 块');
    assert.equal(
      "usage" in assistant,
      false,
      "partial()：this.usage 存在时才写 usage 字段；没收到 usage 时 assistant 没有这个字段（不是 usage: undefined）",
    );
    assert.deepEqual(
      terminal(events),
      { type: "error", reason: "error", message: assistant.errorMessage },
      "最后一个事件是带同一行的 error",
    );
    const shown = JSON.stringify(events);
    assert.equal(shown.includes(KEY.slice(3)) || shown.includes(token.slice(4)), false, "事件里也没有密钥的任何一段");

    const echoed = async (apiKey: string, headers: Record<string, string>, message: string) => {
      server.reply(async (response) => {
        response.writeHead(401, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message } }));
      });
      const echoing = openAICompatibleModel({ baseURL: server.baseURL, model: "m", apiKey, headers, maxRetries: 0 });
      return (await runTurn(echoing)).assistant.errorMessage;
    };
    assert.equal(
      await echoed("k9Zq", {}, "Incorrect API key provided: k9Zq."),
      "401 Incorrect API key provided: [redacted]. (check the API key)",
      "恰好 4 个字符的密钥也换掉：只有短于 4 个字符的才不算",
    );
    assert.equal(
      await echoed("sk-1234", { "x-api-key": "sk-1234-tail-XYZ9" }, "Key sk-1234, x-api-key sk-1234-tail-XYZ9."),
      "401 Key [redacted], x-api-key [redacted]. (check the API key)",
      "从长到短替换：一个密钥包含另一个时先换长的，不留下 -tail-XYZ9 这样的后半截",
    );
    assert.equal(
      await echoed("sk-course-other", { "x-auth-token": "Bearer zq81-tail" }, "Token zq81-tail rejected."),
      "401 Token [redacted] rejected. (check the API key)",
      "凭据头给出两个值：原值，以及去掉 Bearer 之后的值（服务器常常只回显后半截）",
    );
    assert.deepEqual(
      [...new Set(credentialHeaders({ "x-auth-token": "Bearer zq81-tail", accept: "text/plain" }))].sort(),
      ["Bearer zq81-tail", "zq81-tail"],
      "credentialHeaders() 给出两个值：原值（Bearer zq81-tail），以及去掉 Bearer 之后的值；名字不像凭据的头不给出",
    );
    assert.equal(
      await echoed(
        "sk-course-other",
        { "proxy-authorization": "Basic cHJveHk6czNjcmV0" },
        "Proxy cHJveHk6czNjcmV0 denied.",
      ),
      "401 Proxy [redacted] denied. (check the API key)",
      "凭据头给出两个值：原值，以及去掉 `Bearer ` / `Basic ` 之后的值：Basic 凭据的后半截也换掉",
    );
    assert.equal(
      await echoed(
        "sk-course-other",
        { "x-session-token": "sess-4471-zz", "x-client-secret": "cs-93ab-77" },
        "Session sess-4471-zz with cs-93ab-77 expired.",
      ),
      "401 Session [redacted] with [redacted] expired. (check the API key)",
      "名字里有 token 或 secret 的请求头也是凭据（/auth|key|token|secret/i）：它们的值换成 [redacted]",
    );
    assert.equal(
      await echoed("sk-course-other", { "X-Api-Key": "xk-55Tq-91" }, "Key xk-55Tq-91 is unknown."),
      "401 Key [redacted] is unknown. (check the API key)",
      "请求头的名字不分大小写（/auth|key|token|secret/i 的 i）：写成 X-Api-Key、Authorization 的头也是凭据",
    );
    assert.equal(
      await echoed("sk-course-other", {}, 'Upstream said "Bearer proxy-cred-8812".'),
      '401 Upstream said "Bearer [redacted]". (check the API key)',
      "最后再把任何 Bearer … 后面的凭据换掉，哪怕它不是我们发的（SCHEME_CREDENTIAL）",
    );
    assert.equal(
      await echoed("sk-live,77Qz9", {}, 'Header was "Bearer sk-live,77Qz9".'),
      '401 Header was "Bearer [redacted]". (check the API key)',
      "先换每个密钥，最后才换 SCHEME_CREDENTIAL：它的凭据停在逗号处，先换它会把密钥逗号之后的 ,77Qz9 留下",
    );
  },
);

test(
  "密钥：底层错误带着 baseURL 查询串里的密钥（127.0.0.1 上没人监听）：errorMessage 里只有 [redacted]",
  GUARD,
  async () => {
    const secret = "tok-query-5Wq2Zp8Rt";
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1?api_key=${secret}&api-version=2024`;
    const { assistant } = await runTurn(model(baseURL));
    assert.match(
      assistant.errorMessage ?? "",
      /^connection error: cannot reach /,
      "连不上时 errorMessage 以 connection error 开头",
    );
    assert.equal(
      assistant.errorMessage?.includes(secret),
      false,
      `errorMessage 里没有查询串里的密钥：${assistant.errorMessage}`,
    );
    assert.match(
      assistant.errorMessage ?? "",
      /api_key=\[redacted\]&api-version=2024/,
      "只有密钥被换掉，地址的其余部分照样说出",
    );

    const encoded = "tok%2Fquery%2B7Lm4";
    const encodedURL = `http://127.0.0.1:${await closedPort()}/v1?api_key=${encoded}`;
    const encodedRun = await runTurn(model(encodedURL));
    assert.equal(
      encodedRun.assistant.errorMessage?.includes("7Lm4"),
      false,
      `查询串里 percent 编码写出的密钥也换掉（urlCredentials 给出原样与 encodeURIComponent 各一份）：${encodedRun.assistant.errorMessage}`,
    );
    const signature = "sg-77Kd3Qw0Pz";
    const signedRun = await runTurn(model(`http://127.0.0.1:${await closedPort()}/v1?sig=${signature}`));
    assert.equal(
      signedRun.assistant.errorMessage?.includes(signature),
      false,
      `查询串里名字像凭据的参数（/key|token|secret|pass|auth|sig/i）都换掉：?sig=… 的签名也是密钥：${signedRun.assistant.errorMessage}`,
    );
    let unparsable: string[] | undefined;
    assert.doesNotThrow(() => {
      unparsable = urlCredentials("not a url");
    }, "url 解析不了时 urlCredentials 返回 []，不抛出");
    assert.deepEqual(unparsable, [], "url 解析不了时 urlCredentials 返回 []，不抛出");
  },
);

test(
  "坏形状的数据块被拒绝：error（malformed stream）说出收到了什么，而不是 no finish_reason 或 TypeError",
  GUARD,
  async () => {
    // A mapper that reads a value the shape check let through rejects the stream: that is shown as the errorMessage.
    const refused = async (body: string) =>
      replay(`${body}\n\ndata: [DONE]\n\n`).then(
        ({ assistant }) => assistant,
        (error: unknown) => ({ errorMessage: `（流 reject 了：${String(error)}）`, stopReason: "reject" }),
      );
    const array = await refused("data: [1,2]");
    assert.equal(
      array.errorMessage,
      "malformed stream: a data line holds [1,2], not a chunk object",
      "数据行不是对象时说出它",
    );
    assert.equal(array.stopReason, "error", "坏形状以 error 结束");
    const nullChoices = await refused('data: {"id":"c","choices":null}');
    assert.equal(
      nullChoices.errorMessage,
      "malformed stream: a chunk's choices is null, not a list",
      "choices 不是列表时说出它",
    );
    const nullFragment = await refused('data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[null]}}]}');
    assert.equal(
      nullFragment.errorMessage,
      "malformed stream: a chunk's choices[0].delta.tool_calls[0] is null, not an object",
      "tool_calls 的每一项都要是对象：null 的调用片段不跳过（不像 delta: null、tool_calls: null），说出是哪一个调用片段",
    );
    const secondChoice = await refused('data: {"id":"c","choices":[{"index":0,"delta":{"content":"a"}},7]}');
    assert.equal(
      secondChoice.errorMessage,
      "malformed stream: a chunk's choices[1] is 7, not an object",
      "每个 choices[i] 都检查，不只是 choices[0]：第二个 choice 不是对象时说出它是 choices[1]",
    );
    const secondDelta = await refused(
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":"a"}},{"index":1,"delta":5}]}',
    );
    assert.equal(
      secondDelta.errorMessage,
      "malformed stream: a chunk's choices[1].delta is 5, not an object",
      "delta 不是对象时说出是哪一个 choice 的 delta：这里是 choices[1].delta（用 i，不写死 choices[0]）",
    );
    const afterNulls = await refused(
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":null,"tool_calls":null}},{"index":1,"delta":null},{"index":2,"delta":3}]}',
    );
    assert.equal(
      afterNulls.errorMessage,
      "malformed stream: a chunk's choices[2].delta is 3, not an object",
      "服务器常发的 null 仍然接受：content: null、tool_calls: null、delta: null 都跳过，说出的是第一处真正的问题",
    );
    const arrayDelta = await refused('data: {"id":"c","choices":[{"index":0,"delta":["a"]}]}');
    assert.equal(
      arrayDelta.errorMessage,
      'malformed stream: a chunk\'s choices[0].delta is ["a"], not an object',
      'delta 不是对象时说出它：数组也不是对象（用 isObject()，不是 typeof === "object"）',
    );
    const objectCalls = await refused('data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":{"index":0}}}]}');
    assert.equal(
      objectCalls.errorMessage,
      'malformed stream: a chunk\'s choices[0].delta.tool_calls is {"index":0}, not a list',
      'delta.tool_calls 不是数组时说出它：一个对象（{"index":0}）不是列表（用 Array.isArray()）',
    );
    // Only the shape is asked here: reading the chunk is Lab 5.4's, whose stub may still throw.
    const emptyChoices =
      (await refused('data: {"id":"c","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1}}')).errorMessage ??
      "";
    assert.doesNotMatch(
      emptyChoices,
      /malformed stream/,
      "choices 是空列表 [] 的数据块不是坏形状（include_usage 的 usage 块就是 choices: []）：[] 也是列表，chunkProblem() 对它返回 undefined",
    );
    const noChoices =
      (await refused('data: {"id":"c","object":"chat.completion.chunk","usage":{"prompt_tokens":3}}')).errorMessage ??
      "";
    assert.doesNotMatch(
      noChoices,
      /malformed stream/,
      "choices 缺省的数据块不是坏形状（有的服务器只发 usage）：chunkProblem() 对它返回 undefined",
    );
    const long = "x".repeat(100);
    const cut = `${JSON.stringify(long).slice(0, 80)}…`;
    const tooLong: [unknown, string][] = [
      [long, `a data line holds ${cut}, not a chunk object`],
      [{ choices: long }, `a chunk's choices is ${cut}, not a list`],
      [{ choices: [long] }, `a chunk's choices[0] is ${cut}, not an object`],
      [{ choices: [{ delta: long }] }, `a chunk's choices[0].delta is ${cut}, not an object`],
      [{ choices: [{ delta: { tool_calls: long } }] }, `a chunk's choices[0].delta.tool_calls is ${cut}, not a list`],
      [
        { choices: [{ delta: { tool_calls: [long] } }] },
        `a chunk's choices[0].delta.tool_calls[0] is ${cut}, not an object`,
      ],
    ];
    for (const [chunk, sentence] of tooLong) {
      assert.equal(
        (await refused(`data: ${JSON.stringify(chunk)}`)).errorMessage,
        `malformed stream: ${sentence}`,
        "每一句都用 shown() 说出收到的值：最多 80 个字符，更长的截断并加上 …（不是整个 JSON.stringify）",
      );
    }
  },
);

test("文本与终态：每个文本片段一个 text_delta，末尾只有 usage 的块并入 assistant，done stop", GUARD, async () => {
  const { events, assistant } = await replay(fixtureBytes("openai-text.sse"));
  assert.deepEqual(
    of(events, "text_delta").map((event) => event.delta),
    ["This", " project", " is", " pi-course", "."],
    "空的 content 片段不发；其余每个片段一个 text_delta",
  );
  assert.deepEqual(terminal(events), { type: "done", reason: "stop" }, "finish_reason stop 在流结束后才变成 done stop");
  assert.deepEqual(assistant.content, [{ type: "text", text: "This project is pi-course." }], "文字拼成一个 text 块");
  assert.notEqual(
    assistant.usage,
    undefined,
    "assistant 没有 usage：末尾的 usage 块是 choices: []，又在 finish_reason 之后，所以 usage 在“有没有 choice”之前读，也在“finish_reason 已经到过”之前读",
  );
  assert.equal(
    assistant.usage?.input,
    41,
    "usage 的 input 是 prompt_tokens、output 是 completion_tokens（41 与 6）：两个不要对调",
  );
  assert.deepEqual(assistant.usage, { input: 41, output: 6 }, "finish_reason 之后的 usage 块也并入同一条 assistant");
  const lines = await replay(
    [
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":"Line one."},"finish_reason":null}]}',
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":"\\n\\n"},"finish_reason":null}]}',
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":" "},"finish_reason":null}]}',
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":"Line two."},"finish_reason":"stop"}]}',
      "data: [DONE]",
      "",
    ].join("\n\n"),
  );
  const pieces = of(lines.events, "text_delta").map((event) => event.delta);
  assert.equal(
    pieces.at(-1),
    "Line two.",
    "收尾的块（带着 finish_reason 的那块）里的 content 照样读：先读 delta，最后才看 finish_reason",
  );
  assert.deepEqual(
    pieces,
    ["Line one.", "\n\n", " ", "Line two."],
    '只有空白的片段（"\\n\\n"、" "）也是非空字符串：照样追加、发出 text_delta，不 trim',
  );
  assert.deepEqual(
    lines.assistant.content,
    [{ type: "text", text: "Line one.\n\n Line two." }],
    "文字原样拼成一个 text 块",
  );
  const late = await replay(
    [
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":"Done."},"finish_reason":null}]}',
      'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":" Extra."},"finish_reason":null}]}',
      'data: {"id":"c","choices":[],"usage":{"prompt_tokens":5}}',
      "data: [DONE]",
      "",
    ].join("\n\n"),
  );
  assert.deepEqual(
    late.assistant.content,
    [{ type: "text", text: "Done." }],
    "finish_reason 到过以后，之后的 choice 不再读：后来的 content 不进 assistant，也不发 text_delta",
  );
  assert.deepEqual(
    late.assistant.usage,
    { input: 5, output: 0 },
    "usage 缺的字段记 0：{ input: prompt_tokens ?? 0, output: completion_tokens ?? 0 }",
  );
  const blank = await replay(
    [
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":"Still"},"finish_reason":""}]}',
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":" here."},"finish_reason":"stop"}]}',
      "data: [DONE]",
      "",
    ].join("\n\n"),
  );
  assert.deepEqual(
    blank.assistant.content,
    [{ type: "text", text: "Still here." }],
    'finish_reason 是 null 或 "" 时还不算到过（有的代理每块都带 ""）：只有非空字符串才记进 this.finishReason，后面的块照样读',
  );
  const reasoning = await replay(fixtureBytes("deepseek-reasoning-text.sse"));
  assert.deepEqual(
    of(reasoning.events, "text_delta").map((event) => event.delta),
    ["Pi", "-course"],
    "reasoning_content（推理内容）不读：它不属于回答，只有 content 发成 text_delta",
  );
});

test("文本与终态：[DONE] 到了却没有 finish_reason：error，已收到的文字保留", GUARD, async () => {
  const { events, assistant } = await replay(fixtureBytes("ollama-no-finish-reason.sse"));
  assert.equal(assistant.stopReason, "error", "没有 finish_reason 是被截断的回答，不是成功");
  assert.match(assistant.errorMessage ?? "", /^no finish_reason: /, "errorMessage 以 no finish_reason 开头");
  assert.deepEqual(assistant.content, [{ type: "text", text: "The project is" }], "已收到的文字留在 assistant 里");
  assert.equal(terminal(events)?.type, "error", "没有 done：只有一个 error 终态");
});

test("文本与终态：流在中途断开（异常）：error（stream interrupted），已收到的文字保留", GUARD, async () => {
  const body = fixtureBytes("openai-text.sse");
  server.reply(resetAfter(body, body.indexOf(" is")));
  const { events, assistant } = await runTurn(model());
  assert.match(assistant.errorMessage ?? "", /^stream interrupted: /, "连接中途断开是 stream interrupted");
  assert.deepEqual(
    assistant.content,
    [{ type: "text", text: "This project" }],
    "断开之前的文字保留：finish() 的 failed 分支（Lab 5.2 ⑤）把 partial() 给出的 assistant 交给 fail()，不是另做一条空的",
  );
  assert.deepEqual(
    terminal(events),
    { type: "error", reason: "error", message: assistant.errorMessage },
    "以一个 error 事件结束",
  );
});

test(
  "文本与终态：finish_reason 按表翻译：tool_calls 是 toolUse，length 是 done length；content_filter 与不认识的被拒绝：error 说出它，文字保留",
  GUARD,
  async () => {
    const filtered = await replay(fixtureBytes("openai-content-filter.sse"));
    assert.equal(terminal(filtered.events)?.type, "error", "content_filter 只有一个 error 终态，没有 done");
    assert.equal(
      filtered.assistant.errorMessage,
      'finish_reason "content_filter": the server\'s content filter stopped the answer',
      "content_filter 不是成功：errorMessage 是表里专给它的那一句（内容过滤器停下了回答），不是不认识的原因那句 not one of …",
    );
    const unknown = await replay(
      fixtureBytes("openai-text.sse").toString("utf8").replace('"finish_reason":"stop"', '"finish_reason":"eos"'),
    );
    assert.equal(
      unknown.assistant.errorMessage,
      'finish_reason "eos": not one of stop, tool_calls, length',
      "不认识的 finish_reason 不猜成 stop，而是说出它",
    );
    assert.equal(unknown.assistant.stopReason, "error", "不认识的 finish_reason 以 error 结束");
    const shouted = await replay(
      fixtureBytes("openai-text.sse").toString("utf8").replace('"finish_reason":"stop"', '"finish_reason":"STOP"'),
    );
    assert.equal(
      shouted.assistant.errorMessage,
      'finish_reason "STOP": not one of stop, tool_calls, length',
      "表是逐字的：大写的 STOP 也是不认识的原因，不 trim、不转小写，原样说出它",
    );
    assert.deepEqual(
      mapFinishReason(""),
      { error: 'finish_reason "": not one of stop, tool_calls, length' },
      '表是逐字比较的：mapFinishReason("") 是“其他任何值”那一句，不是 no finish_reason（那一句只给 undefined）',
    );
    assert.deepEqual(unknown.assistant.content, [{ type: "text", text: "This project is pi-course." }], "文字保留");
    const toolCalls = await replay(
      fixtureBytes("openai-text.sse")
        .toString("utf8")
        .replace('"finish_reason":"stop"', '"finish_reason":"tool_calls"'),
    );
    assert.deepEqual(
      terminal(toolCalls.events),
      { type: "done", reason: "toolUse" },
      "finish_reason tool_calls 是 done toolUse",
    );
    const cut = await replay(fixtureBytes("llamacpp-length.sse"));
    assert.deepEqual(
      terminal(cut.events),
      { type: "done", reason: "length" },
      "finish_reason length 是 done length：截断是这一轮的原因",
    );
    assert.equal(cut.assistant.stopReason, "length", "stopReason 写成 length");
    assert.deepEqual(cut.assistant.usage, { input: 52, output: 4 }, "收尾那一块上的 usage 也并入");
  },
);

test(
  "重组调用：两个并行调用按 index 交错到达：按 index 拆开，参数完整，末尾 usage 并入，done toolUse",
  GUARD,
  async () => {
    const { events, assistant } = await replay(fixtureBytes("openai-parallel-interleaved.sse"));
    const calls = [
      call("call_A1kQ7rXp2Wm9Ve4Tz6Ns3Hby", "README.md"),
      call("call_B8nF3cLw5Jd0Yg2Rq7Pk1Uxe", "src/index.ts", { limit: 20 }),
    ];
    assert.deepEqual(
      of(events, "toolcall_end").map((event) => event.toolCall),
      calls,
      "每个 index 一个调用，参数只来自它自己的片段",
    );
    assert.deepEqual(assistant.content, calls, "assistant 按 index 顺序带着两个调用");
    assert.equal(assistant.stopReason, "toolUse", "finish_reason tool_calls 是 toolUse");
    assert.deepEqual(terminal(events), { type: "done", reason: "toolUse" }, "调用结束之后只有一个 done toolUse");
    assert.deepEqual(assistant.usage, { input: 120, output: 40 }, "末尾的 usage 块并入");
    assert.equal(
      of(events, "toolcall_delta")
        .map((event) => event.delta)
        .join(""),
      '{"path":{"path":"src/"README.md"index.ts","limit":20}}',
      "每个参数片段按到达顺序原样发一个 toolcall_delta",
    );
    assert.equal(
      of(events, "toolcall_delta").some((event) => event.delta === ""),
      false,
      '参数为 "" 的片段（只带 id 与 name 的第一个片段）不发 toolcall_delta：只有非空的参数片段才发',
    );

    // The same stream with index 1's last fragment naming another id and name: the first ones stay.
    const renamed = await replay(
      fixtureBytes("openai-parallel-interleaved.sse")
        .toString("utf8")
        .replace(
          '{"index":1,"function":{"arguments":"20}"}}',
          '{"index":1,"id":"call_late","function":{"name":"write","arguments":"20}"}}',
        ),
    );
    assert.deepEqual(
      renamed.assistant.content,
      calls,
      "id 与 name 第一次出现时记下：后面的片段带着别的 id 或 name 也不改（第一个算数）",
    );

    // The same stream with the two calls' indexes swapped: index 1 arrives first, index 0 still comes first.
    const swapped = await replay(
      fixtureBytes("openai-parallel-interleaved.sse")
        .toString("utf8")
        .replace(
          /("tool_calls":\[\{"index":)([01])/g,
          (_, head: string, index: string) => `${head}${index === "0" ? 1 : 0}`,
        ),
    );
    assert.deepEqual(
      swapped.assistant.content,
      [calls[1], calls[0]],
      "finish() 按 index 从小到大排列调用，不按第一个片段到达的先后",
    );

    // The same stream with index 1 reusing index 0's id: two calls, two ids.
    const reused = await replay(
      fixtureBytes("openai-parallel-interleaved.sse")
        .toString("utf8")
        .replace("call_B8nF3cLw5Jd0Yg2Rq7Pk1Uxe", "call_A1kQ7rXp2Wm9Ve4Tz6Ns3Hby"),
    );
    assert.deepEqual(
      reused.assistant.content.map((block) => (block.type === "toolCall" ? block.id : block.type)),
      ["call_A1kQ7rXp2Wm9Ve4Tz6Ns3Hby", "call_A1kQ7rXp2Wm9Ve4Tz6Ns3Hby_1"],
      "每个 id 只用一次：后一个调用重复了前一个的 id 时由 uniqueId() 改成 <id>_<index>，两个结果才各配一个调用",
    );

    // An id-less call at index 2 with no index 1: its id comes from its index, not its place in the list.
    const gap = await replay(
      [
        'data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"read","arguments":"{\\"path\\":\\"a.txt\\"}"}}]},"finish_reason":null}]}',
        'data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"name":"read","arguments":"{\\"path\\":\\"b.txt\\"}"}}]},"finish_reason":null}]}',
        'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
        "data: [DONE]",
        "",
      ].join("\n\n"),
    );
    assert.deepEqual(
      gap.assistant.content.map((block) => (block.type === "toolCall" ? block.id : block.type)),
      ["call_a", "call_2"],
      "没有 id 的调用得到 call_<index>：index 2 的调用是 call_2，不按它在调用列表里的位置（第 2 个，call_1）",
    );

    // vLLM's finishing chunk still carries the call's last argument piece (fixtures/README.md).
    const vllm = await replay(fixtureBytes("vllm-reasoning-call.sse"));
    assert.deepEqual(
      vllm.assistant.content,
      [call("chatcmpl-tool-5e2a9c1d7f3b4a8e", "README.md")],
      '收尾的块（finish_reason 那块）还带着最后一个参数片段 "}：先交给 acceptFragments()，最后才看 finish_reason',
    );

    const textAndCall = await replay(
      [
        'data: {"id":"c","choices":[{"index":0,"delta":{"content":"Reading it."},"finish_reason":null}]}',
        'data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_t","function":{"name":"read","arguments":"{\\"path\\":\\"README.md\\"}"}}]},"finish_reason":null}]}',
        'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
        "data: [DONE]",
        "",
      ].join("\n\n"),
    );
    assert.deepEqual(
      textAndCall.assistant.content,
      [{ type: "text", text: "Reading it." }, call("call_t", "README.md")],
      "partial()（Lab 5.2 ④）：content 先放文字的 text 块，再放已完成的调用，不是调用在前",
    );
  },
);

test(
  "重组调用：length 截断了调用：done length，原样的参数片段都在 toolcall_delta 里，调用留在消息里",
  GUARD,
  async () => {
    const { events, assistant } = await replay(fixtureBytes("openai-length-call.sse"));
    assert.equal(
      of(events, "toolcall_delta")
        .map((event) => event.delta)
        .join(""),
      '{"path":"docs/guide/READ',
      "截断的参数原样保留在 toolcall_delta 里，不修补、不丢弃",
    );
    // The same stream under finish_reason tool_calls: endCalls() runs whatever its check, so a call missing here
    // is one finish() dropped.
    const broken = await replay(
      fixtureBytes("openai-length-call.sse")
        .toString("utf8")
        .replace('"finish_reason":"length"', '"finish_reason":"tool_calls"'),
    );
    assert.match(
      broken.assistant.errorMessage ?? "",
      /^the arguments of tool call "read" \(call_Lx7Qm2Nv9Rt4Wb1Kc8Pd3Ysa\) are not valid JSON/,
      "不是 length 时 finish() 的第一处问题存进 callProblem：参数不是 JSON 的调用让这一轮以 error 结束，说出是哪个调用",
    );
    assert.deepEqual(
      broken.assistant.content,
      [{ type: "toolCall", id: "call_Lx7Qm2Nv9Rt4Wb1Kc8Pd3Ysa", name: "read", arguments: {} }],
      "坏调用仍留在 assistant 里，参数是 {}：finish() 把每个调用都放进 calls，参数解析不了的也放（arguments 用 {}），第 07 章的 loop 才能为它写配对的结果",
    );
    assert.equal(
      assistant.content.length,
      1,
      "有调用时 finish_reason 一到就 endCalls()（看 this.assembler.pending，不看 finish_reason 是不是 tool_calls）：length 截断的调用也进入 assistant",
    );
    assert.deepEqual(terminal(events), { type: "done", reason: "length" }, "length 是这一轮的原因，不是坏调用的 error");
    assert.equal(assistant.errorMessage, undefined, "length 没有 errorMessage");
    assert.deepEqual(
      assistant.content,
      [{ type: "toolCall", id: "call_Lx7Qm2Nv9Rt4Wb1Kc8Pd3Ysa", name: "read", arguments: {} }],
      "调用留在 assistant 里（第 07 章为它写 skipped 结果），截断的参数不被猜成对象",
    );
    assert.deepEqual(assistant.usage, { input: 120, output: 16 }, "usage 照样并入");
    assert.deepEqual(
      of(events, "toolcall_end").map((event) => event.toolCall),
      assistant.content,
      "为每个调用发出 toolcall_end，参数是 {} 的调用（截断的、坏的、没有参数的）也是",
    );

    const twoBad = await replay(
      [
        'data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"finish_reason":null}]}',
        'data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","function":{"name":"read","arguments":"{oops"}}]},"finish_reason":null}]}',
        'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
        "data: [DONE]",
        "",
      ].join("\n\n"),
    );
    assert.deepEqual(
      twoBad.assistant.content.map((block) => (block.type === "toolCall" ? block.id : block.type)),
      ["call_0", "call_b"],
      "没有 id 的调用得到 call_<index>（uniqueId 收到的是 call_0，不是空字符串）",
    );
    assert.equal(
      twoBad.assistant.errorMessage,
      "tool call call_0 (index 0) has no name",
      "problem 只记第一处（index 最小的坏调用）：后面的坏调用不覆盖它",
    );
    const badArgumentsFirst = await replay(
      [
        'data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"read","arguments":"{oops"}}]},"finish_reason":null}]}',
        'data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","function":{"arguments":"{}"}}]},"finish_reason":null}]}',
        'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
        "data: [DONE]",
        "",
      ].join("\n\n"),
    );
    assert.match(
      badArgumentsFirst.assistant.errorMessage ?? "",
      /^the arguments of tool call "read" \(call_a\) are not valid JSON/,
      "problem 只记第一处（index 最小的坏调用）：index 0 的参数不是 JSON 时，index 1 没有名字也不覆盖它（两种问题都只在 problem 还没有时才记）",
    );

    const chunk = (fragment: Record<string, unknown>) =>
      `data: ${JSON.stringify({ id: "c", choices: [{ index: 0, delta: { tool_calls: [fragment] }, finish_reason: null }] })}`;
    const finished =
      'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n';
    const spaced = await replay(
      [
        chunk({ index: 0, id: "call_s", function: { name: "read", arguments: '{"path": "a ' } }),
        chunk({ index: 0, function: { arguments: 'b.txt" }' } }),
        finished,
      ].join("\n\n"),
    );
    assert.deepEqual(
      of(spaced.events, "toolcall_delta").map((event) => event.delta),
      ['{"path": "a ', 'b.txt" }'],
      "非空的参数片段追加进去，并原样返回：片段开头结尾的空格也是参数的一部分，不 trim",
    );
    assert.deepEqual(
      spaced.assistant.content,
      [call("call_s", "a b.txt")],
      "参数按收到的片段原样拼起来再解析：a 与 b.txt 之间的空格留着",
    );
    const noIndex = await replay(
      [
        chunk({ id: "call_n", function: { name: "read", arguments: '{"path":' } }),
        chunk({ function: { arguments: '"a.txt"}' } }),
        finished,
      ].join("\n\n"),
    );
    assert.deepEqual(
      noIndex.assistant.content,
      [call("call_n", "a.txt")],
      "缺了 index 时，带名字的片段开始新调用，其他接着上一个：accept() 每次都把 this.lastIndex 记成这个片段的 index",
    );
  },
);

test("取消：流到一半取消：aborted，已收到的文字保留；已经取消的 signal 不发请求", GUARD, async () => {
  const body = fixtureBytes("openai-text.sse");
  server.reply(stallAfter(body.subarray(0, body.indexOf("\n\n", body.indexOf('"This"')) + 2)));
  const controller = new AbortController();
  const { events, assistant } = await runTurn(model(), undefined, { signal: controller.signal }, (event) => {
    if (event.type === "text_delta") controller.abort();
  });
  const end = terminal(events);
  assert.equal(assistant.stopReason, "aborted", "取消以 aborted 结束，不是 error");
  assert.deepEqual(assistant.content, [{ type: "text", text: "This" }], "取消之前收到的文字保留");
  assert.equal(
    assistant.errorMessage,
    "aborted: the request was cancelled",
    '取消用 fail() 以 "aborted" 和 ABORTED_MESSAGE 结束这一轮：errorMessage 就是 ABORTED_MESSAGE',
  );
  assert.deepEqual(
    end,
    { type: "error", reason: "aborted", message: assistant.errorMessage },
    "以 error(aborted) 结束",
  );

  // finish_reason has arrived; the usage chunk that would follow never does: the turn is cancelled while waiting.
  server.reply(
    stallAfter(
      Buffer.from('data: {"id":"c","choices":[{"index":0,"delta":{"content":"Done."},"finish_reason":"stop"}]}\n\n'),
    ),
  );
  const waiting = new AbortController();
  const late = await runTurn(model(), undefined, { signal: waiting.signal }, (event) => {
    if (event.type === "text_delta") waiting.abort();
  });
  assert.equal(
    late.assistant.stopReason,
    "aborted",
    "finish_reason 已经到了、还在等末尾的 usage 块时取消，也以 aborted 结束（不是 done stop）：finish() 先看 end 是不是 aborted，不看 finish_reason",
  );
  assert.deepEqual(
    terminal(late.events),
    { type: "error", reason: "aborted", message: "aborted: the request was cancelled" },
    "finish_reason 之后的取消也只以一个 error(aborted) 结束",
  );

  const before = server.requests.length;
  const early = await runTurn(model(), undefined, { signal: AbortSignal.abort() });
  assert.equal(early.assistant.stopReason, "aborted", "已经取消的 signal：直接 aborted");
  assert.equal(server.requests.length, before, "已经取消的 signal 不发请求");
});
