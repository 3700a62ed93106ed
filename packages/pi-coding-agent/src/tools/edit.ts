// Lab 8.4 · edit：every oldText matched once against the original, BOM and line endings kept,
// the result written atomically, with a unified diff.
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
          const { body, shape } = splitShape(await readText(file, requested));
          const edited = applyEdits(body, edits, shape.eol, requested);
          await writeFileAtomic(file, restoreBom(edited, shape), requested);
          const details = unifiedDiff(requested, body, edited); // { diff, firstChangedLine }
          const count = edits.length === 1 ? "1 edit" : `${edits.length} edits`;
          return { content: [text(`Applied ${count} to ${requested}.`)], details };
        },
      );
    },
  };
}

/** Every edit located in the original `body`, then all applied at once: later edits never see earlier ones. */
function applyEdits(body: string, edits: Edit[], eol: Eol, requested: string): string {
  const matches = edits.map((edit, index) => locate(body, edit, index, eol)).sort((a, b) => a.start - b.start);
  for (let i = 1; i < matches.length; i += 1) {
    const [before, after] = [matches[i - 1] as Match, matches[i] as Match];
    if (after.start < before.end) {
      throw new Error(
        `edits[${before.index}] and edits[${after.index}] overlap; merge them into one edit or target disjoint text.`,
      );
    }
  }
  // Only the span from the first match to the end of the last changes: replacements, and the
  // original text between them. Head and tail are copied once, and comparing spans is cheap.
  let span = "";
  for (const [i, match] of matches.entries()) {
    const next = matches[i + 1];
    span += match.replacement + (next === undefined ? "" : body.slice(match.end, next.start));
  }
  const [first, last] = [matches[0] as Match, matches[matches.length - 1] as Match];
  if (span === body.slice(first.start, last.end)) {
    throw new Error(
      `edits[0..${edits.length - 1}] leave ${requested} unchanged; give a newText that differs from its oldText.`,
    );
  }
  return body.slice(0, first.start) + span + body.slice(last.end);
}

/** Finds edits[index] in the original; it must occur exactly once. */
function locate(body: string, edit: Edit, index: number, eol: Eol): Match {
  if (edit.oldText === "") throw new Error(`edits[${index}].oldText is empty; give the exact text to replace.`);
  if (edit.oldText === edit.newText) {
    throw new Error(
      `edits[${index}] has newText identical to oldText, so the file would not change; give the new text.`,
    );
  }
  // A model usually sends LF; a CRLF file still matches, and the replacement keeps CRLF.
  const oldText = withLineEndings(edit.oldText, eol);
  const start = body.indexOf(oldText);
  if (start === -1) {
    throw new Error(
      `edits[${index}].oldText was not found; it must match the file exactly, including whitespace and indentation.`,
    );
  }
  const occurrences = countOccurrences(body, oldText);
  if (occurrences > 1) {
    throw new Error(
      `edits[${index}].oldText occurs ${occurrences} times; it must be unique, so include more surrounding lines.`,
    );
  }
  return { index, start, end: start + oldText.length, replacement: withLineEndings(edit.newText, eol) };
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
