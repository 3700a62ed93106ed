// Checkpoint 08 · 学习脚手架：createEditTool() 的参数 schema、toLf()/bodyIndex()/endingOf()/withLineEndings()、readText()、
// spliced()、replacementDiff() 与 withFileMutationQueue() 已经写好；Lab 8.4 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ⑥ 完成 `// Lab 8.4` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="精确编辑" packages/pi-coding-agent/dist/test/08-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
// biome-ignore-all lint/style/useImportType: the labs use these imports as values once written.
import type { FileHandle } from "node:fs/promises";
import { type Tool, type ToolExecutionContext, text } from "@pi/core";
import { withFileMutationQueue } from "./file-mutation-queue.js";
import { BOM, bodyIndex, endingOf, type LfText, toLf, withLineEndings } from "./line-endings.js";
import { DEFAULT_MAX_BYTES } from "./truncate.js";
import { type Replacement, replacementDiff } from "./unified-diff.js";
import { openRegularFile, type WorkspaceDir, withParentDir } from "./workspace-dir.js";
import { resolveWorkspacePath } from "./workspace-path.js";
import { writeFileAtomic } from "./write.js";

/** More edits than this in one call are refused: each one is a search of the whole file. */
export const MAX_EDITS = 1000;

interface Edit {
  oldText: string;
  newText: string;
}

interface EditArgs {
  path: string;
  edits: Edit[];
}

/** Where one edit's oldText sits in the LF text of the original. */
interface Match {
  index: number;
  start: number;
  end: number;
  newText: string;
}

export function createEditTool(root: string): Tool {
  return {
    name: "edit",
    description:
      "Replace exact text in a workspace file. Each edits[i].oldText must occur exactly once in the original file; edits must not overlap.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path, relative to the workspace." },
        edits: {
          type: "array",
          minItems: 1,
          maxItems: MAX_EDITS,
          items: {
            type: "object",
            properties: {
              oldText: { type: "string", description: "Exact text to replace, unique in the file." },
              newText: { type: "string", description: "Replacement text." },
            },
            required: ["oldText", "newText"],
            additionalProperties: false,
          },
        },
      },
      required: ["path", "edits"],
      additionalProperties: false,
    },
    async execute(args, { signal }) {
      const { path: requested, edits } = args as unknown as EditArgs;
      // Resolved inside the queue (an outside path is refused there, before any I/O); see file-mutation-queue.ts.
      return withFileMutationQueue(
        () => resolveWorkspacePath(root, requested),
        // Read and written in the folder that was checked: a folder swapped for a link cannot redirect either.
        (file) =>
          withParentDir(root, file, requested, false, async (dir, name) => {
            // Lab 8.4 ①：整个读-改-写都在这个回调里，也就是在同一真实路径的队列里、在检查过的目录里：同一批里
            //   对同一文件的两次 edit 按顺序执行，第二次读到的是第一次写下的内容，两次都落盘。
            // Lab 8.4 ⑤：original = await readText(dir, name, requested)（不是合法 UTF-8 的文件被拒绝）；lf = toLf(original)；
            //   body = 去掉 BOM 的 original；replacements = applyEdits(lf, body, edits, requested, signal)；
            //   writeFileAtomic(dir, name, Buffer.from(BOM（有的话）+ spliced(body, replacements), "utf8"), requested)。
            // Lab 8.4 ⑥：返回 `Applied 1 edit to ${requested}.`（多个时 `Applied N edits …`），
            //   details 为 replacementDiff(requested, body, replacements, DEFAULT_MAX_BYTES)，即 { diff, firstChangedLine }。
            throw new Error("Lab 8.4 按原文精确编辑 尚未实现");
          }).catch((error: NodeJS.ErrnoException) => {
            throw fileError(error, requested);
          }),
      );
    },
  };
}

/**
 * Every edit located in the original (CRLF read as LF), then turned into replacements of the
 * file's own body: later edits never see earlier ones, and each region keeps its line endings.
 */
function applyEdits(
  lf: LfText,
  body: string,
  edits: Edit[],
  requested: string,
  signal: ToolExecutionContext["signal"],
): Replacement[] {
  // Lab 8.4 ③：每个 edit 都用 locate(lf.text, edit, index) 对照原文定位（不是对照前一个 edit 的结果），每个之前看一次
  //   signal：已取消时抛出 `Edit of ${requested} aborted; the file was not changed.`。按 start 排序；相邻两个区间重叠
  //   （后一个的 start < 前一个的 end）时抛出 `edits[i] and edits[j] overlap; merge them into one edit or target disjoint text.`
  // Lab 8.4 ④：把每个 match 换成 body 里的替换：start = bodyIndex(lf, match.start)，end = bodyIndex(lf, match.end)，
  //   text = withLineEndings(match.newText, endingOf(body, start, end))：每一段用它替换的那几行自己的换行写回。
  //   所有替换都和原文相同时抛出 `edits[0..${edits.length - 1}] leave ${requested} unchanged; give a newText that differs from its oldText.`；否则返回替换。
  throw new Error("Lab 8.4 按原文精确编辑 尚未实现");
}

/** Finds edits[index] in the LF text of the original; it must occur exactly once. */
function locate(text: string, edit: Edit, index: number): Match {
  // Lab 8.4 ②：每种失败都是一行错误，并点名 edits[index]：
  //   - oldText 为空：`edits[${index}].oldText is empty; give the exact text to replace.`
  //   - newText 与 oldText 相同：`edits[${index}] has newText identical to oldText, so the file would not change; give the new text.`
  //   - 把 oldText 的换行写成 LF（withLineEndings(edit.oldText, "\n")），再去掉开头的 BOM：text 是 CRLF 读作 LF 的原文；
  //   - 找不到：`edits[${index}].oldText was not found; it must match the file exactly, including whitespace and indentation.`
  //   - 出现不止一次（countOccurrences()）：`edits[${index}].oldText occurs N times; it must be unique, so include more surrounding lines.`
  //   返回 { index, start, end, newText: edit.newText }。
  throw new Error("Lab 8.4 按原文精确编辑 尚未实现");
}

function countOccurrences(body: string, value: string): number {
  let count = 0;
  for (let at = body.indexOf(value); at !== -1; at = body.indexOf(value, at + 1)) count += 1;
  return count;
}

/** `body` with the replacements (sorted, disjoint) made. */
function spliced(body: string, replacements: Replacement[]): string {
  const parts: string[] = [];
  let from = 0;
  for (const { start, end, text } of replacements) {
    parts.push(body.slice(from, start), text);
    from = end;
  }
  parts.push(body.slice(from));
  return parts.join("");
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The file as text; bytes that are not UTF-8 would not survive the round trip, so they are refused. */
async function readText(dir: WorkspaceDir, name: string, requested: string): Promise<string> {
  const handle: FileHandle = await openRegularFile(dir, name, requested);
  let bytes: Buffer;
  try {
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new Error(
      `File "${requested}" is not valid UTF-8, and edit would change its other bytes; edit changes UTF-8 text files only.`,
    );
  }
}

function fileError(error: NodeJS.ErrnoException, requested: string): Error {
  if (error.code === "ENOENT" || error.code === "ENOTDIR")
    return new Error(
      `File "${requested}" does not exist in the workspace; edit changes existing files only (check the path, relative to the workspace root).`,
    );
  if (error.code === "EISDIR") return new Error(`Path "${requested}" is a directory; edit a file in it.`);
  return error;
}
