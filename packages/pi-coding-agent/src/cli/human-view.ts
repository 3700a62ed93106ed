// The view a person reads: the model's text streamed as it arrives, one line per tool call
// (name, key argument, ok/error, a short result; a code script's nested calls indented under it),
// and a final line with reason, steps and tokens.

import type { ToolCall, ToolResultMessage } from "@pi/core";
import type { LoopEvent } from "@pi/course";
import type { NestedCall } from "../codemode/index.js";
import { visible } from "../host/visible-text.js";
import { nestedCallsOf, nestedKeyArgument } from "./nested-calls-view.js";
import type { Style } from "./style.js";

const SHORT = 60;

export function humanView(out: { write(text: string): unknown }, style: Style): (event: LoopEvent) => void {
  let lineOpen = false;
  let tokens: { input: number; output: number } | undefined;
  const calls = new Map<string, ToolCall>();
  const write = (text: string) => {
    if (text === "") return;
    out.write(text);
    lineOpen = !text.endsWith("\n");
  };
  const line = (text: string) => write(`${lineOpen ? "\n" : ""}${text}\n`);

  return (event) => {
    switch (event.type) {
      case "model_event":
        if (event.event.type === "text_delta") write(visible(event.event.delta));
        break;
      case "assistant_message": {
        if (lineOpen) write("\n");
        for (const block of event.message.content) if (block.type === "toolCall") calls.set(block.id, block);
        const used = event.message.usage;
        if (used !== undefined) {
          tokens = { input: (tokens?.input ?? 0) + used.input, output: (tokens?.output ?? 0) + used.output };
        }
        break;
      }
      case "tool_end":
      case "tool_skipped":
        line(toolLine(event.result, calls.get(event.result.toolCallId), event.type === "tool_skipped", style));
        for (const nested of nestedCallsOf(event.result)) line(nestedLine(nested, style));
        break;
      case "turn_end": {
        const used = tokens === undefined ? "tokens —" : `tokens 输入 ${tokens.input} / 输出 ${tokens.output}`;
        const reason = event.reason === "stop" ? style.ok(event.reason) : style.bad(event.reason);
        line(style.dim("— ") + reason + style.dim(` · ${event.steps} 步 · ${used}`));
        tokens = undefined;
        calls.clear();
        break;
      }
      default:
        break;
    }
  };
}

function toolLine(result: ToolResultMessage, call: ToolCall | undefined, skipped: boolean, style: Style): string {
  const argument = call === undefined ? "" : ` ${short(keyArgument(call))}`;
  const name = style.name(visible(result.toolName)) + argument;
  const output = result.content.map((block) => block.text).join("\n");
  if (skipped) {
    const reason = (result.details as { reason?: unknown } | undefined)?.reason;
    return `  ${style.dim("–")} ${name} → 未执行（${visible(String(reason ?? "skipped"))}）`;
  }
  const mark = result.isError ? style.bad("✗") : style.ok("✓");
  return `  ${mark} ${name} → ${summary(output, truncatedFrom(result))}`;
}

/** One nested call of a code script, indented under its code call. */
function nestedLine(call: NestedCall, style: Style): string {
  const mark = call.outcome === "ok" ? style.ok("✓") : style.bad("✗");
  const name = `${style.dim(visible(call.id))} ${style.name(visible(call.name))} ${short(nestedKeyArgument(call))}`;
  const result =
    call.outcome === "ok" || call.outcome === "error"
      ? summary(call.text, undefined)
      : `${call.outcome}：${short(call.text)}`;
  return `      ${mark} ${name} → ${result}`;
}

/** The argument that says what a call does: the path, the command, else the first string argument. */
function keyArgument(call: ToolCall): string {
  const args = call.arguments;
  for (const key of ["path", "command"]) if (typeof args[key] === "string") return args[key];
  const first = Object.values(args).find((value) => typeof value === "string");
  return typeof first === "string" ? first : JSON.stringify(args);
}

/** The line count of the whole file or output a truncated result was cut from (read's and bash's details). */
function truncatedFrom(result: ToolResultMessage): number | undefined {
  const truncation = (result.details as { truncation?: { totalLines?: unknown } } | undefined)?.truncation;
  const total = truncation?.totalLines;
  return typeof total === "number" && Number.isSafeInteger(total) && total >= 0 ? total : undefined;
}

/** The first non-empty line, shortened, and how many lines there were: the file's, not the shown page's, when cut. */
function summary(output: string, totalLines: number | undefined): string {
  const lines = output.split(/\r?\n/);
  while (lines.length > 0 && lines.at(-1)?.trim() === "") lines.pop();
  const first = lines.find((line) => line.trim() !== "") ?? "（无输出）";
  const count = totalLines ?? lines.length;
  return count > 1 ? `${short(first)}（共 ${count} 行）` : short(first);
}

function short(text: string): string {
  const flat = visible(text.replace(/\s+/g, " ").trim());
  return flat.length > SHORT ? `${flat.slice(0, SHORT - 1)}…` : flat;
}
