// Lab 8.3 · write：create parent directories, then write atomically (temp file + rename).
import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type Tool, text } from "@pi/core";
import { withFileMutationQueue } from "./file-mutation-queue.js";
import { resolveWorkspacePath } from "./workspace-path.js";

interface WriteArgs {
  path: string;
  content: string;
}

export function createWriteTool(root: string): Tool {
  return {
    name: "write",
    description: "Create or overwrite a file in the workspace with the given content; parent directories are created.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path, relative to the workspace." },
        content: { type: "string", description: "The whole new content of the file." },
      },
      required: ["path", "content"],
      additionalProperties: false,
    },
    async execute(args) {
      const { path: requested, content } = args as unknown as WriteArgs;
      // Resolved inside the queue (an outside path is refused there, before any I/O); see file-mutation-queue.ts.
      return withFileMutationQueue(
        () => resolveWorkspacePath(root, requested),
        async (file) => {
          const bytes = Buffer.byteLength(content, "utf8");
          await mkdir(path.dirname(file), { recursive: true });
          await writeFileAtomic(file, content, requested);
          return { content: [text(`Wrote ${bytes} bytes to ${requested}.`)], details: { path: requested, bytes } };
        },
      );
    },
  };
}

/**
 * Writes `content` to a temporary file beside `file`, then renames it over `file`: a reader sees
 * the old content or the new one, never half of it. The file's permission bits are kept.
 */
export async function writeFileAtomic(file: string, content: string, requested: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  const existing = await stat(file).catch(() => undefined);
  if (existing?.isDirectory()) throw new Error(`Path "${requested}" is a directory; write to a file path.`);
  try {
    // One buffer written whole: writeFile() would send a string out in 512 KB round trips.
    const data = Buffer.from(content, "utf8");
    const handle = await open(temp, "wx");
    try {
      for (let written = 0; written < data.length; ) written += (await handle.write(data, written)).bytesWritten;
    } finally {
      await handle.close();
    }
    if (existing !== undefined) await chmod(temp, existing.mode & 0o7777);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
