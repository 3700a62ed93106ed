// Lab 8.4 · edit：every oldText matched once against the original (CRLF read as LF), each region
// written back with its own line endings and the BOM kept, the result written atomically in the
// folder that was checked, with a unified diff of bounded size.
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
            const original = await readText(dir, name, requested);
            const lf = toLf(original);
            const body = lf.bom ? original.slice(1) : original;
            const replacements = applyEdits(lf, body, edits, requested, signal);
            const edited = (lf.bom ? BOM : "") + spliced(body, replacements);
            await writeFileAtomic(dir, name, Buffer.from(edited, "utf8"), requested);
            // { diff, firstChangedLine }, the diff cut at 50 KB: it is kept in the session.
            const details = replacementDiff(requested, body, replacements, DEFAULT_MAX_BYTES);
            const count = edits.length === 1 ? "1 edit" : `${edits.length} edits`;
            return { content: [text(`Applied ${count} to ${requested}.`)], details };
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
  const matches: Match[] = [];
  for (const [index, edit] of edits.entries()) {
    if (signal?.aborted) throw new Error(`Edit of ${requested} aborted; the file was not changed.`);
    matches.push(locate(lf.text, edit, index));
  }
  matches.sort((a, b) => a.start - b.start);
  for (let i = 1; i < matches.length; i += 1) {
    const [before, after] = [matches[i - 1] as Match, matches[i] as Match];
    if (after.start < before.end) {
      throw new Error(
        `edits[${before.index}] and edits[${after.index}] overlap; merge them into one edit or target disjoint text.`,
      );
    }
  }
  const replacements = matches.map((match) => {
    const [start, end] = [bodyIndex(lf, match.start), bodyIndex(lf, match.end)];
    return { start, end, text: withLineEndings(match.newText, endingOf(body, start, end)) };
  });
  if (replacements.every(({ start, end, text }) => body.slice(start, end) === text)) {
    throw new Error(
      `edits[0..${edits.length - 1}] leave ${requested} unchanged; give a newText that differs from its oldText.`,
    );
  }
  return replacements;
}

/** Finds edits[index] in the LF text of the original; it must occur exactly once. */
function locate(text: string, edit: Edit, index: number): Match {
  if (edit.oldText === "") throw new Error(`edits[${index}].oldText is empty; give the exact text to replace.`);
  if (edit.oldText === edit.newText) {
    throw new Error(
      `edits[${index}] has newText identical to oldText, so the file would not change; give the new text.`,
    );
  }
  // A model may send LF or CRLF, and may copy the BOM that read left out of line 1.
  const oldText = withLineEndings(edit.oldText, "\n").replace(/^\uFEFF/, "");
  const start = text.indexOf(oldText);
  if (start === -1) {
    throw new Error(
      `edits[${index}].oldText was not found; it must match the file exactly, including whitespace and indentation.`,
    );
  }
  if (text.indexOf(oldText, start + 1) !== -1) {
    throw new Error(
      `edits[${index}].oldText occurs ${countOccurrences(text, oldText)} times; it must be unique, so include more surrounding lines.`,
    );
  }
  return { index, start, end: start + oldText.length, newText: edit.newText };
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
