// tiny-pi's human view on a real file too long for one read: the tool line counts the file's lines
// (read's truncation details), not the lines of the page the model was shown plus its notice.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { assistantMessage, type ToolCall, type ToolOutput, type ToolResultMessage } from "@pi/core";
import { humanView } from "../src/cli/human-view.js";
import { plainStyle } from "../src/cli/style.js";
import { createReadTool } from "../src/tools/read.js";

function resultOf(call: ToolCall, output: ToolOutput): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: output.content,
    ...(output.details !== undefined ? { details: output.details } : {}),
    isError: false,
    timestamp: 1,
  };
}

test("tiny-pi 的人类视图：read 截断了的文件显示文件本身的行数（1586 行），不是截断后结果的行数", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "human-view-lines-"));
  try {
    const lines = Array.from({ length: 1586 }, (_, index) => `第 ${index + 1} 行`);
    await writeFile(path.join(dir, "README.md"), `${lines.join("\n")}\n`);
    const read = createReadTool(dir, { maxLines: 653, maxBytes: 1024 * 1024 });
    const call: ToolCall = { type: "toolCall", id: "c1", name: "read", arguments: { path: "README.md" } };
    const output = await read.execute(call.arguments, {});
    const result = resultOf(call, output);
    const written: string[] = [];
    const view = humanView({ write: (text) => void written.push(text) }, plainStyle);
    view({ type: "assistant_message", message: assistantMessage([call], "toolUse") });
    view({ type: "tool_end", result });
    assert.equal(
      written.join(""),
      "  ✓ read README.md → 第 1 行（共 1586 行）\n",
      "共几行说的是文件，不是给模型看的那一页",
    );

    const short = await read.execute({ path: "README.md", offset: 1, limit: 2 }, {});
    written.length = 0;
    view({ type: "tool_end", result: resultOf({ ...call, id: "c2" }, short) });
    assert.match(written.join(""), /第 1 行/, "没有截断信息时仍显示第一行");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
