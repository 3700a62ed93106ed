// Resume a session after a crash mid-task. The session file is what a killed tiny-pi left: the
// user's request, the assistant's call and (in the practice task) the call's result, the last
// entry written before the kill. The agent resumes it with "继续". The policy trusts the path it
// is sent: a result says the line is in, an interrupted call says do it again. A resume that
// loses the last entry makes the policy append the line a second time.
import { assistantMessage, type Message, type ToolCall, type ToolResultMessage, text, userMessage } from "@pi/core";
import { messageEntry, newHeader } from "../../session/entries.js";
import { INTERRUPTED_CALL } from "../../session/session-context.js";
import { answer, callTool, finalAnswer, lastOf, policyModel, textOf, verdictOf } from "../policy-model.js";
import type { EvalTask } from "../types.js";

const CHANGELOG = "# 变更记录\n\n- 0.1.0 首个版本\n";
const LINE = "- 0.2.0 支持 --json";
const APPEND = `echo '${LINE}' >> CHANGELOG.md`;

/** The session a crash left, as JSONL; `withResult`: the call's result was written before the kill. */
export function crashedSession(workspace: string, withResult: boolean): string {
  const call: ToolCall = { type: "toolCall", id: "call_crash_1", name: "bash", arguments: { command: APPEND } };
  const messages: Message[] = [
    userMessage("把这一行追加到 CHANGELOG.md 的末尾：- 0.2.0 支持 --json", 1),
    assistantMessage([text("我来追加。"), call], "toolUse", 2),
  ];
  if (withResult) {
    messages.push({
      role: "toolResult",
      toolCallId: call.id,
      toolName: "bash",
      content: [text("(no output)")],
      isError: false,
      timestamp: 3,
    });
  }
  const lines: unknown[] = [newHeader(workspace)];
  let parent: string | null = null;
  for (const message of messages) {
    const entry = messageEntry(message, parent);
    lines.push(entry);
    parent = entry.id;
  }
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

/** The policy after "继续": the last result of the append says whether it happened. */
function resumePolicy(messages: readonly Message[]) {
  const appended = lastOf(messages, (message) => message.role === "toolResult" && message.toolName === "bash") as
    | ToolResultMessage
    | undefined;
  const last = messages.at(-1);
  if (last?.role === "toolResult") return answer(last.isError ? "追加失败了。" : "已经追加好了。");
  if (appended === undefined || appended.isError || textOf(appended).includes(INTERRUPTED_CALL)) {
    return callTool("bash", { command: APPEND }, "上次的追加没有完成，我重新追加。");
  }
  return answer("上次已经追加好了，不用再做。");
}

const countLine = (content: string | null | undefined) =>
  (content ?? "").split("\n").filter((row) => row === LINE).length;

export function resumeTask(name: string, withResult: boolean): EvalTask {
  return {
    name,
    // The crash came after the tool ran when its result was written; before it ran otherwise.
    fixture: { "CHANGELOG.md": withResult ? `${CHANGELOG}${LINE}\n` : CHANGELOG },
    prompts: ["继续"],
    agent: { session: (workspace) => crashedSession(workspace, withResult) },
    model: () => policyModel(resumePolicy),
    declares: ["CHANGELOG.md"],
    judge: ({ messages, files }) =>
      verdictOf({
        "CHANGELOG.md 里恰好有一行 0.2.0": countLine(files["CHANGELOG.md"]) === 1,
        原有的内容还在: (files["CHANGELOG.md"] ?? "").startsWith(CHANGELOG),
        活动路径从崩溃前的请求开始: textOf(messages[0]).includes("0.2.0"),
        回答说追加好了: finalAnswer(messages).includes("追加好了"),
      }),
  };
}

export const resumeAfterCrash = resumeTask("resume-crash", true);
