// Lab 8.2 · read：a page of a text file, capped in lines and bytes, read in chunks so memory stays bounded.
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
  const head = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
  const kind = binaryKind(head.subarray(0, bytesRead));
  if (kind !== undefined) throw new Error(`File "${requested}" is binary (${kind}); read only text files.`);

  // The size at open bounds the read: a file being appended to still ends.
  const bounds = {
    size: (await handle.stat()).size,
    signal,
    aborted: () => new Error(`Read of ${requested} aborted.`),
  };
  const maxLines = Math.min(limit ?? limits.maxLines, limits.maxLines);
  const page: Page = { offset, shown: [], totalLines: 0 };
  let shownBytes = 0;
  const wanted = (line: number) => line >= offset && line < offset + maxLines;
  for await (const line of readLines(handle, wanted, limits.maxBytes, bounds)) {
    page.totalLines = line.number;
    if (line.number < offset) continue;
    if (page.shown.length === maxLines) {
      page.stoppedBy = limit !== undefined && limit <= limits.maxLines ? "limit" : "lines";
    } else {
      const cost = line.byteLength + (page.shown.length > 0 ? 1 : 0); // the joining newline counts
      if (shownBytes + cost <= limits.maxBytes && line.bytes !== undefined) {
        page.shown.push(line.bytes.toString("utf8"));
        shownBytes += cost;
        continue;
      }
      page.stoppedBy = "bytes";
      if (page.shown.length === 0) page.tooLongLine = line.byteLength;
    }
    // The page is done: the rest is only counted, a scan of bytes instead of a step per line.
    page.totalLines = line.number - 1 + (await countLinesFrom(handle, line.start, bounds));
    break;
  }
  if (offset > Math.max(page.totalLines, 1)) {
    throw new Error(
      `Offset ${offset} is beyond end of file (${page.totalLines} lines total); use an offset from 1 to ${page.totalLines}.`,
    );
  }
  // read and edit agree: the BOM is not text, and edit matches without it.
  if (offset === 1 && page.shown[0]?.startsWith(BOM)) page.shown[0] = page.shown[0].slice(1);
  return page;
}

/** The page as the model reads it: the lines, then a notice naming the offset to continue from. */
function pageOutput(page: Page, requested: string, limits: OutputLimits): ToolOutput {
  const { offset, shown, totalLines, stoppedBy } = page;
  if (page.tooLongLine !== undefined) {
    const notice = `[Line ${offset} is ${formatSize(page.tooLongLine)}, over the ${formatSize(limits.maxBytes)} limit. Use bash: sed -n '${offset}p' ${shellQuoted(requested)} | head -c ${limits.maxBytes}]`;
    const truncation: Truncation = {
      truncatedBy: "bytes",
      totalLines,
      outputLines: 0,
      firstLine: offset,
      lastLine: offset - 1,
    };
    return { content: [text(notice)], details: { truncation } };
  }
  if (totalLines === 0) return { content: [text("(empty file)")] };

  const lastLine = offset + shown.length - 1;
  const body = shown.join("\n");
  if (stoppedBy === undefined) return { content: [text(body)] };
  const next = `Use offset=${lastLine + 1} to continue.`;
  if (stoppedBy === "limit") {
    return { content: [text(`${body}\n\n[${totalLines - lastLine} more lines in file. ${next}]`)] };
  }
  const cap = stoppedBy === "bytes" ? ` (${formatSize(limits.maxBytes)} limit)` : "";
  const truncation: Truncation = {
    truncatedBy: stoppedBy,
    totalLines,
    outputLines: shown.length,
    firstLine: offset,
    lastLine,
  };
  return {
    content: [text(`${body}\n\n[Showing lines ${offset}-${lastLine} of ${totalLines}${cap}. ${next}]`)],
    details: { truncation },
  };
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
