import assert from "node:assert/strict";
import { test } from "node:test";
import { executeToolCall, type ToolCall, type ToolDefinition, text } from "@pi/core";
import { runAgentLoop } from "@pi/course";
import { notDeclaredLine } from "../src/exposure/registry.js";
import { rankTools, SEARCH_LIMIT, toolSearchTool } from "../src/exposure/tool-search.js";
import { declaredOn, parseToolChange, TOOL_STATE, toolChange, toolStateEntry } from "../src/exposure/tool-state.js";
import { pendingChange } from "../src/exposure/transcript.js";
import { messageEntry, type SessionEntry } from "../src/session/entries.js";
import { JsonlSessionStore } from "../src/session/jsonl-store.js";
import { parseEntry } from "../src/session/parse-entry.js";
import { declaredIn, enableTool, exposed, namedTool, runtimeOn, shape } from "./exposure-fixture.js";
import { asks, says, scripted, sessionFile, withDir } from "./runtime-fixture.js";

/** Each test ends by itself when it hangs (a promise that never settles) and names itself. */
const TEST_TIMEOUT_MS = 5_000;

function call(name: string, args: Record<string, unknown> = {}, id = `call-${name}`): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

function definition(name: string, description = `The ${name} tool.`, parameters: object = { type: "object" }) {
  return { name, description, parameters };
}

function changeEntry(id: string, parentId: string | null, added: ToolDefinition[], removed: string[] = []) {
  return toolStateEntry({ added, removed }, parentId, id);
}

// ─── Lab 15.1 · 暴露 ───

test("暴露：直接的工具一开始就声明，延迟的激活后按注册顺序加入且不重复，隐藏的两边都不在", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const tools = exposed([
    ["read", "direct"],
    ["alpha", "deferred"],
    ["secret", "hidden"],
    ["beta", "deferred"],
  ]);
  assert.deepEqual(tools.declared(), ["read"], "只有 direct 的工具一开始就声明");
  assert.deepEqual(
    tools.definitions().map((tool) => tool.name),
    ["read"],
    "请求带的 definitions() 只是声明的工具",
  );
  assert.deepEqual(
    [tools.callable("read"), tools.callable("alpha"), tools.callable("secret")],
    [true, false, false],
    "可调用的集合与声明的集合相同：延迟的没激活、隐藏的永远不可调用",
  );
  assert.deepEqual(
    tools.deferred().map((tool) => tool.name),
    ["alpha", "beta"],
    "deferred() 是还没激活的延迟工具，按注册顺序",
  );
  assert.deepEqual(
    tools.activate(["beta", "nope", "read", "secret", "alpha", "beta"]),
    ["alpha", "beta"],
    "activate() 只激活延迟的工具，按注册顺序返回新激活的，跳过未知、直接与隐藏的",
  );
  assert.deepEqual(tools.activate(["alpha"]), [], "已经激活的不会再加一次");
  assert.deepEqual(tools.declared(), ["read", "alpha", "beta"], "激活后声明的集合按注册顺序，不按激活顺序");
  assert.deepEqual(
    tools.definitions().map((tool) => tool.name),
    ["read", "alpha", "beta"],
    "definitions() 跟着声明的集合",
  );
  assert.deepEqual(tools.deferred(), [], "激活过的不再是待搜索的延迟工具");
  assert.equal(tools.callable("secret"), false, "隐藏的工具激活不了");
});

test("暴露：没有声明的工具的调用被拒绝，得到一条配对的错误结果，说出工具名与先用 tool_search 找到它", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const ran: string[] = [];
  const tools = exposed(
    [
      ["read", "direct"],
      ["alpha", "deferred"],
      ["secret", "hidden"],
    ],
    ran,
  );
  const refused = await executeToolCall(call("alpha"), tools, {});
  assert.deepEqual(
    refused,
    { ...refused, role: "toolResult", toolCallId: "call-alpha", toolName: "alpha", isError: true },
    "拒绝也是与调用配对的一条 isError 结果（第 06 章的规则：每个调用恰好一个结果）",
  );
  assert.deepEqual(
    refused.content,
    [text(notDeclaredLine("alpha"))],
    "拒绝的那一行说出工具名，并说要先用 tool_search 找到它",
  );
  assert.match(
    notDeclaredLine("alpha"),
    /"alpha".*tool_search/,
    "拒绝的那一行说出工具名，并说要先用 tool_search 找到它",
  );
  const hidden = await executeToolCall(call("secret"), tools, {});
  assert.equal(hidden.isError, true, "隐藏的工具不可调用：调用得到错误结果");
  assert.doesNotMatch(hidden.content[0]?.text ?? "", /tool_search/, "隐藏的工具找不到：不叫模型去搜索它");
  assert.deepEqual(ran, [], "被拒绝的调用不运行工具");
  tools.activate(["alpha"]);
  const after = await executeToolCall(call("alpha"), tools, {});
  assert.deepEqual([after.isError, after.content], [false, [text("alpha ran")]], "激活之后同一个调用运行并成功");
  assert.deepEqual(ran, ["alpha"], "激活之后工具只运行一次");
});

test("暴露：同一条 assistant 里先激活再调用仍被拒绝：作用域检查在任何工具运行之前，下一次请求才声明它", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const ran: string[] = [];
  const tools = exposed([["alpha", "deferred"]], ran);
  tools.register(enableTool(tools));
  const both = {
    ...asks("c1", "enable", { names: ["alpha"] }),
  };
  both.content.push(call("alpha", {}, "c2"));
  const model = scripted(both, asks("c3", "alpha", {}), says("好了"));
  const result = await runAgentLoop({ model, tools, context: { messages: [] } });
  assert.equal(result.reason, "stop", "拒绝是一个工具结果，不结束这一轮");
  assert.deepEqual(declaredIn(model, 0), ["enable"], "第一次请求只声明直接的工具");
  const results = result.messages.filter((message) => message.role === "toolResult");
  assert.deepEqual(
    results.map((message) => [message.toolCallId, message.isError]),
    [
      ["c1", false],
      ["c2", true],
      ["c3", false],
    ],
    "同一条 assistant 里的 alpha 调用被拒绝（作用域在运行任何工具之前检查），下一回合的调用成功",
  );
  assert.deepEqual(declaredIn(model, 1), ["alpha", "enable"], "激活之后的下一次请求就声明 alpha（按注册顺序）");
  assert.deepEqual(ran, ["alpha"], "alpha 只在激活后的回合运行");
});

// ─── Lab 15.2 · 工具状态 ───

test("工具状态：声明的集合从分支的条目重放得出：先删后加，改了的定义先删再加，结果不共享引用", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const read = definition("read");
  const alpha = definition("alpha");
  const beta = definition("beta");
  const alpha2 = definition("alpha", "The alpha tool, version 2.");
  const path: SessionEntry[] = [
    messageEntry({ role: "user", content: "开始", timestamp: 1 }, null, "00000001"),
    changeEntry("00000002", "00000001", [read, alpha]),
    changeEntry("00000003", "00000002", [beta]),
    changeEntry("00000004", "00000003", [alpha2], ["alpha"]),
    changeEntry("00000005", "00000004", [], ["read"]),
  ];
  const declared = declaredOn(path);
  assert.deepEqual(declared, [beta, alpha2], "重放：每条变化先删后加；改了的定义先删再加，排到最后");
  assert.deepEqual(declaredOn(path.slice(0, 3)), [read, alpha, beta], "分支的任何位置都能重放出当时声明的集合");
  assert.deepEqual(declaredOn([path[0] as SessionEntry]), [], "没有工具状态条目的分支声明的集合是空的");
  (declared[0] as { description: string }).description = "改过了";
  (declared[1]?.parameters as Record<string, unknown>).type = "改过了";
  assert.deepEqual(declaredOn(path), [beta, alpha2], "重放的结果是副本：改它不影响条目，再重放得到一样的集合");
  assert.deepEqual(
    toolChange([read, alpha], [read, alpha2, beta]),
    { added: [alpha2, beta], removed: ["alpha"] },
    "toolChange：改了的定义是先删再加，新的工具加上",
  );
  assert.deepEqual(
    toolChange([read, alpha], [alpha]),
    { added: [], removed: ["read"] },
    "toolChange：没有了的工具删掉",
  );
  assert.equal(toolChange([read, alpha], [read, alpha]), undefined, "toolChange：集合没变就没有变化");
});

test("工具状态：严格的解析器拒绝空的变化、未知的字段与不是对象的参数 schema", { timeout: TEST_TIMEOUT_MS }, () => {
  const ok = parseToolChange({ added: [definition("alpha")], removed: ["beta"] });
  assert.deepEqual(ok, { added: [definition("alpha")], removed: ["beta"] }, "合法的变化原样解析");
  const input = { added: [definition("alpha")], removed: [] };
  const parsed = parseToolChange(input);
  (parsed.added[0]?.parameters as Record<string, unknown>).type = "改过了";
  assert.deepEqual(input.added[0]?.parameters, { type: "object" }, "解析的结果是副本，不共享输入的引用");
  const refusals: [unknown, RegExp][] = [
    [{ added: [], removed: [] }, /空/],
    [{ added: [definition("a")], removed: [], note: "x" }, /未知的字段 note/],
    [{ added: [{ ...definition("a"), extra: 1 }], removed: [] }, /未知的字段 extra/],
    [{ added: [definition("a", "d", [])], removed: [] }, /parameters/],
    [{ added: [definition("a", "d", "object" as unknown as object)], removed: [] }, /parameters/],
    [{ added: [definition("")], removed: [] }, /name/],
    [{ added: [], removed: [3] }, /removed\[0\]/],
    [{ added: [definition("a")] }, /数组/],
    ["added", /不是 JSON 对象/],
  ];
  for (const [value, line] of refusals) {
    assert.throws(
      () => parseToolChange(value),
      line,
      `严格的解析器拒绝 ${JSON.stringify(value)}：空的变化、未知的字段、不是对象的参数 schema 都是一行错误`,
    );
  }
});

test("工具状态：第 10 章的读取器认得 tool-state 条目并原样写读会话文件，别的 customType 仍被拒绝", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const entry = changeEntry("0000000a", null, [definition("alpha")], ["beta"]);
  assert.deepEqual(parseEntry(entry), entry, "parseEntry 认得 customType 为 tool-state 的 custom 条目");
  assert.equal(entry.customType, TOOL_STATE, "工具状态是 Pi 的 custom 条目，customType 是我们自己的");
  assert.throws(
    () => parseEntry({ ...entry, customType: "someone-else" }),
    /customType/,
    "别的 customType 是别的扩展的状态：这一章的读取器拒绝它，一行说出 customType",
  );
  assert.throws(() => parseEntry({ ...entry, extra: true }), /未知的字段 extra/, "条目上的未知字段被拒绝");
  assert.throws(() => parseEntry({ ...entry, data: { added: [], removed: [] } }), /空/, "条目里空的变化被拒绝");
  await withDir(async (dir) => {
    const store = await sessionFile(dir, [entry]);
    const reopened = await JsonlSessionStore.open(store.file);
    assert.deepEqual(reopened.entries(), [entry], "tool-state 条目写进会话文件，再打开读回一样的条目");
  });
});

// ─── Lab 15.3 · 记录变化 ───

test("记录变化：每个工具都是直接的运行一条变化也不写，transcript 与第 07 章的一样", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    const session = await sessionFile(dir);
    const tools = exposed([
      ["alpha", "direct"],
      ["beta", "direct"],
    ]);
    const model = scripted(asks("c1", "alpha", {}), says("好了"));
    const runtime = runtimeOn(session, model, tools);
    await runtime.prompt("用 alpha");
    await runtime.dispose();
    assert.deepEqual(
      shape(session.entries()),
      ["message:user", "message:assistant", "message:toolResult", "message:assistant"],
      "全部直接的注册表不写工具状态条目：transcript 与第 07 章的一样",
    );
    assert.equal(pendingChange([], [definition("alpha")], true), undefined, "全部直接、分支没有工具状态：没有变化");
    assert.deepEqual(
      pendingChange([], [definition("alpha")], false),
      { added: [definition("alpha")], removed: [] },
      "有延迟的工具时，第一次请求记下它声明的集合",
    );
  });
});

test("记录变化：变化记在引起它的消息之后，只在声明的集合真的变了时", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withDir(async (dir) => {
    const session = await sessionFile(dir);
    const tools = exposed([
      ["look", "direct"],
      ["alpha", "deferred"],
      ["beta", "deferred"],
    ]);
    tools.register(enableTool(tools));
    const model = scripted(
      asks("c1", "enable", { names: ["alpha"] }),
      asks("c2", "alpha", {}),
      says("好了"),
      asks("c3", "enable", { names: ["alpha"] }),
      says("还是那些"),
    );
    const runtime = runtimeOn(session, model, tools);
    await runtime.prompt("打开 alpha");
    await runtime.prompt("再打开一次");
    await runtime.dispose();
    assert.deepEqual(
      shape(session.entries()),
      [
        "message:user",
        "custom:+look,enable -",
        "message:assistant",
        "message:toolResult",
        "custom:+alpha -",
        "message:assistant",
        "message:toolResult",
        "message:assistant",
        "message:user",
        "message:assistant",
        "message:toolResult",
        "message:assistant",
      ],
      "第一条变化在用户消息之后、第一次请求之前；激活后的变化在引起它的工具结果之后；集合没变的请求不写变化",
    );
    assert.deepEqual(declaredIn(model, 2), ["look", "alpha", "enable"], "请求声明的与分支重放出的一样");
    assert.deepEqual(
      declaredOn(session.entries()).map((tool) => tool.name),
      ["look", "enable", "alpha"],
      "分支上的条目重放出最后一次请求声明的工具",
    );
  });
});

test("记录变化：恢复的分支重新声明它找到过的工具；这次运行没有了的工具只得到一条删除", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    const first = await sessionFile(dir);
    const before = exposed([
      ["look", "direct"],
      ["alpha", "deferred"],
      ["gone", "deferred"],
    ]);
    before.register(enableTool(before));
    const model = scripted(asks("c1", "enable", { names: ["alpha", "gone"] }), says("好了"));
    const runtime = runtimeOn(first, model, before);
    await runtime.prompt("打开 alpha 与 gone");
    await runtime.dispose();

    const reopened = await JsonlSessionStore.open(first.file);
    const now = exposed([
      ["look", "direct"],
      ["alpha", "deferred"],
    ]);
    now.register(enableTool(now));
    const resumedModel = scripted(asks("c2", "alpha", {}), says("用过了"));
    const resumed = runtimeOn(reopened, resumedModel, now, reopened.leafId() ?? undefined);
    await resumed.prompt("再用 alpha");
    await resumed.dispose();
    assert.deepEqual(
      declaredIn(resumedModel, 0),
      ["look", "alpha", "enable"],
      "恢复的分支声明过 alpha：打开时从分支恢复激活，第一次请求就声明它（不是从一个变量里）",
    );
    const added = reopened.entries().slice(first.entries().length);
    assert.deepEqual(
      shape(added),
      ["message:user", "custom:+ -gone", "message:assistant", "message:toolResult", "message:assistant"],
      "这次运行没有了的工具得到一条只有删除的变化；恢复的工具不再记一遍",
    );
    assert.equal(
      added[3]?.type === "message" && added[3].message.role === "toolResult" && added[3].message.isError,
      false,
      "恢复的 alpha 可以调用",
    );
  });
});

// ─── Lab 15.4 · 工具搜索 ───

const catalogue: ToolDefinition[] = [
  definition("github_create_issue", "Create an issue in a GitHub repository.", {
    type: "object",
    properties: { repo: {}, title: {}, body: {} },
  }),
  definition("github_close_issue", "Close an issue in a GitHub repository.", {
    type: "object",
    properties: { repo: {} },
  }),
  definition("file_create", "Create a file.", { type: "object", properties: { path: {} } }),
  definition("calendar_create_event", "Create an event in the calendar.", { type: "object", properties: { when: {} } }),
  definition("catalog_lookup", "Look up a product in the catalog.", { type: "object", properties: { sku: {} } }),
  definition("blog_publish", "Publish a post.", { type: "object", properties: { post: {} } }),
  definition("sendEmail", "Send an email message.", { type: "object", properties: { recipientAddress: {} } }),
  definition("twin_a", "Rotate the keys.", { type: "object" }),
  definition("twin_b", "Rotate the keys.", { type: "object" }),
];

test("工具搜索：BM25 按名称、描述与参数名排序，稀有的词分量更重，相同分数保持注册顺序，不是子串匹配", {
  timeout: TEST_TIMEOUT_MS,
}, () => {
  const names = (query: string, limit?: number) => rankTools(query, catalogue, limit).map((tool) => tool.name);
  assert.deepEqual(
    names("create issue"),
    ["github_create_issue", "github_close_issue", "file_create", "calendar_create_event"],
    "两个词都有的排在前面；issue 比 create 稀有，所以只有 issue 的排在只有 create 的前面",
  );
  assert.deepEqual(names("log"), [], "不是子串匹配：log 不匹配 catalog 与 blog");
  assert.deepEqual(names("recipient address"), ["sendEmail"], "参数名参与排序，camelCase 拆成词");
  assert.deepEqual(names("email"), ["sendEmail"], "名称按 camelCase 拆成词");
  assert.deepEqual(names("rotate keys"), ["twin_a", "twin_b"], "相同的分数保持注册顺序");
  assert.deepEqual(names("ROTATE"), ["twin_a", "twin_b"], "大小写不影响");
  assert.deepEqual(names("create issue", 1), ["github_create_issue"], "最多返回 limit 个");
  assert.deepEqual(names("   "), [], "空的查询没有匹配");
  const shorter = rankTools("keys", [definition("a", "keys keys keys keys rotate"), definition("b", "keys rotate")]);
  assert.deepEqual(
    shorter.map((tool) => tool.name),
    ["a", "b"],
    "BM25 的词频饱和：出现四次的比出现一次的高",
  );
  const longDoc = rankTools("keys", [
    definition("long", "keys and many other words that make this description much longer than the other"),
    definition("short", "keys here"),
  ]);
  assert.deepEqual(
    longDoc.map((tool) => tool.name),
    ["short", "long"],
    "BM25 的长度归一化：同样出现一次，短的文档分数高",
  );
});

test("工具搜索：一次搜索最多激活 5 个并报告加载了哪些，已激活的不会再加，下一次搜索找剩下的", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const tools = exposed([["read", "direct"]]);
  for (let index = 0; index < 8; index += 1) {
    tools.register(namedTool(`report_${index}`, `Write report number ${index}.`), "deferred");
  }
  tools.register(namedTool("weather", "Tell the weather."), "deferred");
  const search = toolSearchTool(tools);
  tools.register(search);
  assert.equal(SEARCH_LIMIT, 5, "每次搜索最多激活 5 个");
  assert.deepEqual(tools.declared(), ["read", "tool_search"], "tool_search 是直接的工具：一开始就声明");
  const first = await search.execute({ query: "report" }, {});
  assert.deepEqual(
    first.details,
    { loaded: ["report_0", "report_1", "report_2", "report_3", "report_4"] },
    "一次搜索激活最多 5 个，并在结果里报告它们",
  );
  assert.match(first.content[0]?.text ?? "", /report_0[\s\S]*report_4/, "结果的文字列出加载的工具");
  const second = await search.execute({ query: "report" }, {});
  assert.deepEqual(
    second.details,
    { loaded: ["report_5", "report_6", "report_7"] },
    "已激活的不再是候选：第二次找剩下的",
  );
  const third = await search.execute({ query: "report" }, {});
  assert.deepEqual(third.details, { loaded: [] }, "没有剩下的就什么也不加");
  assert.match(third.content[0]?.text ?? "", /No deferred tool/, "没有匹配时结果这样说");
  assert.equal(tools.callable("weather"), false, "不匹配的工具不被激活");
});

test("工具搜索：端到端：搜索之前调用延迟的工具被拒绝，搜索之后下一次请求就声明它，调用成功，会话记下变化", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withDir(async (dir) => {
    const session = await sessionFile(dir);
    const ran: string[] = [];
    const tools = exposed([["look", "direct"]], ran);
    for (let index = 0; index < 100; index += 1) {
      tools.register(
        namedTool(`ext_tool_${index}`, `Extension tool ${index} handles widget ${index}.`, ran),
        "deferred",
      );
    }
    tools.register(namedTool("deploy_site", "Deploy the website to production.", ran, { target: {} }), "deferred");
    tools.register(toolSearchTool(tools));
    const model = scripted(
      asks("c1", "deploy_site", { target: "prod" }),
      asks("c2", "tool_search", { query: "deploy website" }),
      asks("c3", "deploy_site", { target: "prod" }),
      says("部署好了"),
    );
    const runtime = runtimeOn(session, model, tools);
    await runtime.prompt("把网站部署上去");
    await runtime.dispose();
    assert.deepEqual(declaredIn(model, 0), ["look", "tool_search"], "第一次请求只声明直接的工具与 tool_search");
    const results = runtime.messages().filter((message) => message.role === "toolResult");
    assert.deepEqual(
      results.map((message) => [message.toolName, message.isError]),
      [
        ["deploy_site", true],
        ["tool_search", false],
        ["deploy_site", false],
      ],
      "搜索之前的调用被拒绝；搜索之后的调用成功",
    );
    assert.equal(declaredIn(model, 2).includes("deploy_site"), true, "搜索之后的下一次请求就声明找到的工具");
    assert.deepEqual(ran, ["deploy_site"], "deploy_site 只运行了一次：搜索之后");
    assert.deepEqual(
      shape(session.entries()).filter((line) => line.startsWith("custom")),
      ["custom:+look,tool_search -", "custom:+deploy_site -"],
      "会话记下第一次声明的集合与搜索之后的变化",
    );
  });
});
