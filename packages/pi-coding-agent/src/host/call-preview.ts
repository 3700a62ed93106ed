// What the permission gate shows before it asks: the command of a bash call, or the path of a write
// or edit call with a preview of the diff it would make (edit's the same replacement diff its result
// will hold, chapter 08's unified-diff.ts). The preview never changes anything and never fails: a
// path the tool would refuse is shown as such, and the tool itself still decides.
import { readFile } from "node:fs/promises";
import { createPatch } from "diff";
import type { HookCall } from "../index.js";
import { toLf } from "../tools/line-endings.js";
import { replacementDiff } from "../tools/unified-diff.js";
import { resolveWorkspacePath } from "../tools/workspace-path.js";
import { visible } from "./visible-text.js";

/** Lines of diff shown; the rest is counted. */
const PREVIEW_LINES = 40;
const PREVIEW_BYTES = 16 * 1024;

export async function callPreview(call: HookCall, workspace: string): Promise<string> {
  const args = call.arguments;
  if (call.name === "bash") return `bash 要执行：${visible(String(args.command ?? ""))}`;
  if (call.name !== "write" && call.name !== "edit") {
    const shown = JSON.stringify(args);
    return `${call.name} 要调用，参数：${visible(shown.length > PREVIEW_BYTES ? `${shown.slice(0, PREVIEW_BYTES)}…` : shown)}`;
  }
  const requested = typeof args.path === "string" ? args.path : "";
  const head = `${call.name} 要修改 ${visible(requested)}`;
  let before: string | undefined;
  try {
    before = await readFile(await resolveWorkspacePath(workspace, requested), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") return `${head}（工具会拒绝这个路径：${(error as Error).message}）`;
  }
  const diff =
    call.name === "write" ? writeDiff(requested, before, args.content) : editDiff(requested, before, args.edits);
  return `${head}\n${shortened(diff)}`;
}

function writeDiff(requested: string, before: string | undefined, content: unknown): string {
  const after = typeof content === "string" ? content : "";
  if (before === undefined) return createPatch(requested, "", toLf(after).text, "（新文件）", "");
  return createPatch(requested, toLf(before).text, toLf(after).text, "", "");
}

/** Each oldText found once in the LF text, as edit finds it; an edit it would refuse is named instead. */
function editDiff(requested: string, before: string | undefined, edits: unknown): string {
  if (before === undefined) return "（文件不存在：edit 会拒绝这次调用）";
  const lf = toLf(before).text;
  const list = Array.isArray(edits) ? (edits as { oldText?: unknown; newText?: unknown }[]) : [];
  const replacements = [];
  for (const [index, edit] of list.entries()) {
    const oldText = typeof edit?.oldText === "string" ? toLf(edit.oldText).text : "";
    const start = oldText === "" ? -1 : lf.indexOf(oldText);
    if (start === -1 || lf.indexOf(oldText, start + 1) !== -1)
      return `（edits[${index}].oldText 不是唯一的一处：edit 会拒绝这次调用）`;
    replacements.push({ start, end: start + oldText.length, text: String(edit.newText ?? "") });
  }
  replacements.sort((a, b) => a.start - b.start);
  return replacementDiff(requested, lf, replacements, PREVIEW_BYTES).diff;
}

function shortened(diff: string): string {
  const lines = diff.split("\n").filter((line) => !line.startsWith("====") && !line.startsWith("Index: "));
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => `  ${visible(line)}`);
  if (lines.length > PREVIEW_LINES) shown.push(`  …（还有 ${lines.length - PREVIEW_LINES} 行）`);
  return shown.join("\n");
}
