// Checkpoint 08 · 学习脚手架：createEditTool() 的参数 schema、splitShape()/restoreBom()/withLineEndings()、
// unifiedDiff() 与 withFileMutationQueue() 已经写好；Lab 8.4 的算法先抛出“尚未实现”的临时错误。
// 按 ① → ⑥ 完成 `// Lab 8.4` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="精确编辑" packages/pi-coding-agent/dist/test/08-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
// biome-ignore-all lint/style/useImportType: the labs use these imports as values once written.
import { readFile } from "node:fs/promises";
import { type Tool, text } from "@pi/core";
import { withFileMutationQueue } from "./file-mutation-queue.js";
import { restoreBom, splitShape, type TextShape, withLineEndings } from "./line-endings.js";
import { unifiedDiff } from "./unified-diff.js";
import { resolveWorkspacePath } from "./workspace-path.js";
import { writeFileAtomic } from "./write.js";

interface Edit {
  oldText: string;
  newText: string;
}

interface EditArgs {
  path: string;
  edits: Edit[];
}

type Eol = TextShape["eol"];

/** Where one edit's oldText sits in the original. */
interface Match {
  index: number;
  start: number;
  end: number;
  replacement: string;
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
    async execute(args) {
      const { path: requested, edits } = args as unknown as EditArgs;
      // Resolved inside the queue (an outside path is refused there, before any I/O); see file-mutation-queue.ts.
      return withFileMutationQueue(
        () => resolveWorkspacePath(root, requested),
        async (file) => {
          // Lab 8.4 ①：整个读-改-写都在这个回调里，也就是在同一真实路径的队列里：同一批里对同一文件的两次
          //   edit 按顺序执行，第二次读到的是第一次写下的内容，两次都落盘。
          // Lab 8.4 ⑤：splitShape(await readText(file, requested)) 得到去掉 BOM 的 body 与 shape；
          //   edited = applyEdits(body, edits, shape.eol, requested)；writeFileAtomic(file, restoreBom(edited, shape), requested)。
          // Lab 8.4 ⑥：返回 `Applied 1 edit to ${requested}.`（多个时 `Applied N edits …`），
          //   details 为 unifiedDiff(requested, body, edited)，即 { diff, firstChangedLine }。
          throw new Error("Lab 8.4 按原文精确编辑 尚未实现");
        },
      );
    },
  };
}

/** Every edit located in the original `body`, then all applied at once: later edits never see earlier ones. */
function applyEdits(body: string, edits: Edit[], eol: Eol, requested: string): string {
  // Lab 8.4 ③：每个 edit 都用 locate() 对照原文 body 定位（不是对照前一个 edit 的结果），按 start 排序；
  //   相邻两个区间重叠（后一个的 start < 前一个的 end）时抛出
  //   `edits[i] and edits[j] overlap; merge them into one edit or target disjoint text.`
  // Lab 8.4 ④：只有从第一个区间开头到最后一个区间结尾的这一段会变：依次接上每个 replacement 和两个区间之间的原文。
  //   这一段与原文相同时抛出 `edits[0..n-1] leave ${requested} unchanged; …`；否则返回 开头 + 这一段 + 结尾。
  throw new Error("Lab 8.4 按原文精确编辑 尚未实现");
}

/** Finds edits[index] in the original; it must occur exactly once. */
function locate(body: string, edit: Edit, index: number, eol: Eol): Match {
  // Lab 8.4 ②：每种失败都是一行错误，并点名 edits[index]：
  //   - oldText 为空：`edits[${index}].oldText is empty; give the exact text to replace.`
  //   - newText 与 oldText 相同：`edits[${index}] has newText identical to oldText, so the file would not change; …`
  //   - 把 oldText 的换行写成文件的换行（withLineEndings(edit.oldText, eol)）：LF 写的 oldText 也能匹配 CRLF 文件；
  //   - 找不到：`edits[${index}].oldText was not found; it must match the file exactly, including whitespace and indentation.`
  //   - 出现不止一次（countOccurrences()）：`edits[${index}].oldText occurs N times; it must be unique, so include more surrounding lines.`
  //   返回 { index, start, end, replacement }，replacement 也用 withLineEndings(edit.newText, eol)，文件保持原来的换行。
  throw new Error("Lab 8.4 按原文精确编辑 尚未实现");
}

function countOccurrences(body: string, value: string): number {
  let count = 0;
  for (let at = body.indexOf(value); at !== -1; at = body.indexOf(value, at + 1)) count += 1;
  return count;
}

async function readText(file: string, requested: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT")
      throw new Error(`File "${requested}" does not exist in the workspace; create it with write instead.`);
    if (code === "EISDIR") throw new Error(`Path "${requested}" is a directory; edit a file in it.`);
    throw error;
  }
}
