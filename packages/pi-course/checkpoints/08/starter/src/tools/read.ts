// Checkpoint 08 · 学习脚手架：createReadTool() 的参数 schema 与 execute() 的流程、openFile()、binaryKind()、readLines()、
// countLinesFrom()、formatSize() 与 shellQuoted() 已经写好；Lab 8.2 的 readPage() 与 pageOutput() 先抛出“尚未实现”的临时错误。
// 按 ① → ⑥ 完成 `// Lab 8.2` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="分页读取" packages/pi-coding-agent/dist/test/08-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
// biome-ignore-all lint/style/useImportType: the labs use these imports as values once written.
import type { FileHandle } from "node:fs/promises";
import { type Tool, type ToolOutput, text } from "@pi/core";
import { binaryKind, SNIFF_BYTES } from "./file-kind.js";
import { BOM } from "./line-endings.js";
import { countLinesFrom, readLines } from "./line-reader.js";
import { formatSize, type OutputLimits, type Truncation } from "./truncate.js";
import { openRegularFile, withParentDir } from "./workspace-dir.js";
import { resolveWorkspacePath } from "./workspace-path.js";

interface ReadArgs {
  path: string;
  offset?: number;
  limit?: number;
}

export function createReadTool(root: string, limits: OutputLimits): Tool {
  return {
    name: "read",
    description: `Read a text file in the workspace. Output stops at ${limits.maxLines} lines or ${formatSize(limits.maxBytes)}; a notice then names the offset to continue from.`,
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path, relative to the workspace." },
        offset: { type: "integer", minimum: 1, description: "First line to read, 1-based." },
        limit: { type: "integer", minimum: 1, description: "Number of lines to read." },
      },
      required: ["path"],
      additionalProperties: false,
    },
    async execute(args, { signal }) {
      const { path: requested, offset = 1, limit } = args as unknown as ReadArgs;
      const file = await resolveWorkspacePath(root, requested);
      const handle = await openFile(root, file, requested);
      try {
        return pageOutput(await readPage(handle, requested, offset, limit, limits, signal), requested, limits);
      } finally {
        await handle.close();
      }
    },
  };
}

/** What one read collected: the lines shown, the file's total, and why it stopped early. */
interface Page {
  offset: number;
  shown: string[];
  totalLines: number;
  stoppedBy?: "limit" | Truncation["truncatedBy"];
  /** Byte length of the first wanted line when it alone is over the byte cap. */
  tooLongLine?: number;
}

async function readPage(
  handle: FileHandle,
  requested: string,
  offset: number,
  limit: number | undefined,
  limits: OutputLimits,
  signal: AbortSignal | undefined,
): Promise<Page> {
  // Lab 8.2 ①：读文件开头 SNIFF_BYTES 个字节（handle.read(head, 0, SNIFF_BYTES, 0)），binaryKind() 认出
  //   二进制时抛出一行错误：`File "${requested}" is binary (${kind}); read only text files.`
  // Lab 8.2 ②：bounds = { size: 打开时的大小 (await handle.stat()).size, signal, aborted: () => new Error(`Read of ${requested} aborted.`) }：
  //   读到打开时的大小为止（正在被追加的文件也会结束），每个块之前看一次 signal。本页最多
  //   maxLines = min(limit ?? limits.maxLines, limits.maxLines) 行。用 readLines(handle, wanted, limits.maxBytes, bounds)
  //   一行一行读（wanted(n) 只对 offset ≤ n < offset + maxLines 为真），内存不随文件增长；每一行都更新 page.totalLines。
  // Lab 8.2 ③：页内的行依次放进 page.shown，字节数按“行长 + 连接用的换行”累计：
  //   - 已有 maxLines 行：stoppedBy 是 "limit"（调用者自己的 limit ≤ 上限时）或 "lines"；
  //   - 再放一行会超过 limits.maxBytes（或这一行太长、line.bytes 没有保留）：stoppedBy = "bytes"，
  //     如果这是页里的第一行，把它的 byteLength 记为 page.tooLongLine —— 报告它，不截成半行。
  //   停下时不再逐行处理：totalLines = line.number - 1 + await countLinesFrom(handle, line.start, bounds)（只扫描字节数行），然后 break。
  // Lab 8.2 ④：offset > max(totalLines, 1) 时抛出
  //   `Offset ${offset} is beyond end of file (${totalLines} lines total); use an offset from 1 to ${totalLines}.`
  //   offset 为 1 且第一行以 BOM 开头时去掉它（read 与 edit 一致：edit 匹配时也不含 BOM），返回 page。
  throw new Error("Lab 8.2 分页读取文本 尚未实现");
}

/** The page as the model reads it: the lines, then a notice naming the offset to continue from. */
function pageOutput(page: Page, requested: string, limits: OutputLimits): ToolOutput {
  // Lab 8.2 ⑤：首行太长时只返回 notice（路径用 shellQuoted() 放进单引号：提示会被原样交给 bash）：
  //   `[Line ${offset} is ${formatSize(n)}, over the ${formatSize(limits.maxBytes)} limit. Use bash: sed -n '${offset}p' ${shellQuoted(requested)} | head -c ${limits.maxBytes}]`
  //   details.truncation 写 { truncatedBy: "bytes", totalLines, outputLines: 0, firstLine: offset, lastLine: offset - 1 }（一行也没有给出）。空文件返回 "(empty file)"。
  // Lab 8.2 ⑥：正文是 shown.join("\n")。没有停下就原样返回；停下时空一行再接 notice，N 是下一行的行号：
  //   "limit"          → `[R more lines in file. Use offset=N to continue.]`
  //   "lines"/"bytes"  → `[Showing lines A-B of T. Use offset=N to continue.]`，"bytes" 在 T 后加 ` (${formatSize(limits.maxBytes)} limit)`，即 ` (50 KB limit)`
  //   后两种还在 details.truncation 里写 { truncatedBy, totalLines, outputLines, firstLine, lastLine }。
  throw new Error("Lab 8.2 分页读取文本 尚未实现");
}

/** Opened in the folder that was checked: a folder swapped for a link since cannot redirect it. */
async function openFile(root: string, file: string, requested: string): Promise<FileHandle> {
  try {
    return await withParentDir(root, file, requested, false, (dir, name) => openRegularFile(dir, name, requested));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EISDIR") throw new Error(`Path "${requested}" is a directory; read a file in it.`);
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new Error(
        `File "${requested}" does not exist in the workspace; check the path (relative to the workspace root).`,
      );
    throw error;
  }
}

/** `value` as one shell word: the hint is run as is, and a file name may hold `$(…)`. */
function shellQuoted(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}
