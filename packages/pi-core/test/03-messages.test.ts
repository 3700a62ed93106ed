import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type AssistantMessage,
  assistantMessage,
  type Message,
  type ModelEvent,
  PushModelStream,
  type ToolCall,
  type ToolResultMessage,
  text,
  userMessage,
} from "../src/index.js";
import { projectText } from "../src/projection.js";

const readCall: ToolCall = { type: "toolCall", id: "call-1", name: "read", arguments: { path: "README.md" } };
const readResult: ToolResultMessage = {
  role: "toolResult",
  toolCallId: "call-1",
  toolName: "read",
  content: [{ type: "text", text: "# tiny-pi\nA small agent runtime." }],
  isError: false,
  timestamp: 3,
};

function readmeTrace(): Message[] {
  return [
    userMessage("请读取 README.md，并告诉我项目名。", 1),
    assistantMessage([text("我先读取项目说明。"), readCall], "toolUse", 2),
    readResult,
    assistantMessage([text("项目名是 tiny-pi。")], "stop", 4),
  ];
}

/** Freezes a value and everything in it, so any write to it throws. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

test("消息 IR：text、userMessage、assistantMessage 给出 canonical 形状，时间戳由调用者给定或取当前时间", () => {
  assert.deepEqual(text("你好"), { type: "text", text: "你好" }, "text() 是一个 text 块");
  assert.equal(
    text("  缩进的一行\n").text,
    "  缩进的一行\n",
    "text() 的 value 原样放进 text 字段，内容不改写：不 trim，开头结尾的空白与换行都留着",
  );
  assert.deepEqual(
    userMessage("请读取 README.md", 1),
    { role: "user", content: "请读取 README.md", timestamp: 1 },
    "user 消息：role、content、timestamp 三个字段",
  );
  assert.equal(
    userMessage("  请读取 README.md\n", 1).content,
    "  请读取 README.md\n",
    "user 消息的 content 原样放进去，内容不改写：不 trim，开头结尾的空白与换行都留着",
  );
  assert.deepEqual(
    assistantMessage([text("我先读取项目说明。"), readCall], "toolUse", 2),
    { role: "assistant", content: [text("我先读取项目说明。"), readCall], stopReason: "toolUse", timestamp: 2 },
    "assistant 消息：文本块与调用按顺序放在 content 里，带 stopReason，没有别的字段",
  );
  const before = Date.now();
  const untimed = assistantMessage([], "stop");
  const untimedUser = userMessage("hi");
  const after = Date.now();
  assert.ok(
    untimed.timestamp >= before && untimed.timestamp <= after,
    `省略时间戳时取当前时间（Date.now()），不是 0 或别的常数：得到 ${untimed.timestamp}`,
  );
  assert.equal("errorMessage" in untimed, false, "正常结束的 assistant 没有 errorMessage 字段");
  assert.ok(
    untimedUser.timestamp >= before && untimedUser.timestamp <= after,
    `user 消息省略时间戳时同样取当前时间（Date.now()），不是 0 或别的常数：得到 ${untimedUser.timestamp}`,
  );
});

test("文本投影：README 往返投影成四行，调用只留名字与 id，结果只留第一行", () => {
  assert.equal(
    projectText([assistantMessage([text("我先读取项目说明。"), readCall], "toolUse", 2)]),
    "assistant: 我先读取项目说明。 [read call-1]",
    "assistant 一行：文本块写文字，调用写 [name id]（名字在前、id 在后），块之间一个空格",
  );
  assert.equal(
    projectText([readResult]).split(":")[0],
    "toolResult call-1",
    "toolResult 一行写 toolResult <id>：id 是结果的 toolCallId（call-1），不是工具名 toolName（read）",
  );
  assert.equal(
    projectText([readResult]),
    "toolResult call-1: # tiny-pi …",
    "toolResult 一行只留结果的第一行（firstLine()：后面还有行时加上 ' …'），不是整段结果",
  );
  assert.equal(
    projectText(readmeTrace()),
    [
      "user: 请读取 README.md，并告诉我项目名。",
      "assistant: 我先读取项目说明。 [read call-1]",
      "toolResult call-1: # tiny-pi …",
      "assistant: 项目名是 tiny-pi。",
    ].join("\n"),
    "每条消息一行，按 transcript 的顺序",
  );
  assert.equal(
    projectText([userMessage("后来的问题", 5), assistantMessage([text("先前的回答")], "stop", 1)]),
    "user: 后来的问题\nassistant: 先前的回答",
    "按 transcript 的顺序，不按时间戳排序：时间戳 5 的消息排在数组前面，它的一行也在前面",
  );
  const failed: ToolResultMessage = { ...readResult, content: [{ type: "text", text: "ENOENT" }], isError: true };
  assert.equal(projectText([failed]), "toolResult call-1 (error): ENOENT", "失败的结果标出 (error)");
  assert.equal(
    projectText([userMessage([text("第一段"), text("第二段")], 1)]),
    "user: 第一段第二段",
    "块数组形式的 user 内容用 joined() 连成一行：块之间什么也不加（不加空格）",
  );
  assert.equal(
    projectText([userMessage("  缩进的问题 ", 1)]),
    "user:   缩进的问题 ",
    "user：字符串原样用，不 trim、不改写（冒号与空格之后就是 content 本身）",
  );
  assert.equal(
    projectText([{ ...readResult, content: [text("第一段"), text("接着\n第二行")] }]),
    "toolResult call-1: 第一段接着 …",
    "toolResult 的文字是 firstLine(joined(content))：先把所有文本块连起来，再取第一行，不是只看第一个块",
  );
  assert.equal(
    projectText([assistantMessage([], "stop", 5)]),
    "assistant: ",
    "没有块时这一行就以 `: ` 结尾，冒号后的空格照写（一行是 assistantHead() 加上冒号与空格再加各块，不 trim）",
  );
});

test("文本投影：有损但不改 canonical 消息，同一份消息投影两次结果相同", () => {
  const trace = deepFreeze(readmeTrace());
  const copy = structuredClone(trace);
  let first = "";
  assert.doesNotThrow(() => {
    first = projectText(trace);
  }, "投影只读：不 push、不 sort、不改写任何字段（消息已深度冻结，任何写入都会抛出）");
  assert.equal(projectText(trace), first, "投影只读消息：两次结果一样");
  assert.deepEqual(trace, copy, "投影之后 canonical 消息与投影之前完全相同");

  const otherPath = assistantMessage(
    [text("我先读取项目说明。"), { ...readCall, arguments: { path: "x" } }],
    "toolUse",
    9,
  );
  assert.equal(
    projectText([otherPath]),
    projectText([trace[1] as AssistantMessage]),
    "参数与时间戳不同的两条消息投影成同一行：文字丢了信息，不能代替 messages",
  );
});

test("error 终态：流以 error 事件结束，result() 仍给出最终 assistant，部分文字与 errorMessage 都保留，投影标出终态", async () => {
  const partial: AssistantMessage = {
    ...assistantMessage([text("我先读")], "error", 2),
    errorMessage: "upstream overloaded",
  };
  const stream = new PushModelStream();
  const sent: ModelEvent[] = [
    { type: "start" },
    { type: "text_delta", delta: "我先读" },
    { type: "error", reason: "error", message: "upstream overloaded" },
  ];
  for (const event of sent) stream.push(event);
  stream.end(partial);
  const seen: ModelEvent[] = [];
  for await (const event of stream) seen.push(event);
  assert.deepEqual(seen.at(-1), sent.at(-1), "最后一个事件是 error 终态，不是 done");
  const final = await stream.result();
  assert.ok(final === partial, "error 也是协议里的终态：result() resolve 成 end 收到的那一条 assistant，不是 reject");
  assert.equal(
    projectText([final]),
    "assistant (error: upstream overloaded): 我先读",
    "投影写出终态与诊断，部分文字留在后面",
  );
  assert.equal(
    projectText([assistantMessage([], "aborted", 3)]),
    "assistant (aborted): ",
    "没有 errorMessage 的 aborted 只标出终态；冒号与空格照写，即使后面没有块（一行是 assistantHead() 加上冒号与空格再加各块）",
  );
  assert.equal(
    projectText([{ ...assistantMessage([text("我先")], "error", 3), errorMessage: "" }]),
    "assistant (error: ): 我先",
    "有 errorMessage 字段就写进括号，空字符串也是（看 === undefined，不看真假）：只有没有这个字段时才只写终态",
  );
  assert.equal(
    projectText([{ ...assistantMessage([text("我先")], "aborted", 3), errorMessage: "cancelled by user" }]),
    "assistant (aborted: cancelled by user): 我先",
    "aborted 也是终态：有 errorMessage 时和 error 一样写成 (aborted: <errorMessage>)，诊断不丢",
  );
});
