// Lab 8.3 · write：create parent directories, then write atomically (temp file + rename) in the
// folder that was checked; a file the user could not write is refused, its owner and mode kept.
import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { constants, type FileHandle, lstat, open, rename, rm } from "node:fs/promises";
import { type Tool, text } from "@pi/core";
import { withFileMutationQueue } from "./file-mutation-queue.js";
import {
  changedWhileInUse,
  O_NOFOLLOW,
  O_NONBLOCK,
  refuseIrregular,
  type WorkspaceDir,
  withParentDir,
} from "./workspace-dir.js";
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
          const data = Buffer.from(content, "utf8");
          // create: true makes the missing parent folders, each inside the one before.
          await withParentDir(root, file, requested, true, (dir, name) => writeFileAtomic(dir, name, data, requested));
          const bytes = data.length;
          return { content: [text(`Wrote ${bytes} bytes to ${requested}.`)], details: { path: requested, bytes } };
        },
      );
    },
  };
}

const CREATE_TEMP = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;

/**
 * Writes `data` to a new temporary file beside `name` in `dir`, then renames it over `name`: a
 * reader sees the old content or the new one, never half of it. An existing file must be one
 * the user could write; its permission bits, and its owner and group where the process may set
 * them, are kept.
 */
export async function writeFileAtomic(dir: WorkspaceDir, name: string, data: Buffer, requested: string): Promise<void> {
  const existing = await lstat(dir.entry(name)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (existing !== undefined) await checkReplaceable(dir, name, existing, requested);
  const temp = tempNameFor(name);
  let created = false;
  try {
    // Exclusive and not following a link: the temp file is always a new file of this folder.
    // Private until its mode is set: it may become a copy of a file only its owner may read.
    const handle = await open(dir.entry(temp), CREATE_TEMP, existing === undefined ? 0o666 : 0o600);
    created = true;
    try {
      // Before any byte is written: a temp file that a swap sent elsewhere stays empty.
      await dir.verify(handle, temp);
      // One buffer written whole: writeFile() would send a string out in 512 KB round trips.
      for (let written = 0; written < data.length; ) written += (await handle.write(data, written)).bytesWritten;
      if (existing !== undefined) await keepOwnerAndMode(handle, existing);
    } finally {
      await handle.close();
    }
    await rename(dir.entry(temp), dir.entry(name));
  } catch (error) {
    if (created) await rm(dir.entry(temp), { force: true });
    throw error;
  }
}

/**
 * `.<name>.<12 hex digits>.tmp`, beside `name`. A name near the 255 bytes a file name may hold is
 * cut (by whole characters) so that the temp name still fits: otherwise a legal long name fails.
 */
export function tempNameFor(name: string): string {
  const suffix = `.${randomBytes(6).toString("hex")}.tmp`;
  const characters = Array.from(name);
  while (Buffer.byteLength(`.${characters.join("")}${suffix}`) > 255) characters.pop();
  return `.${characters.join("")}${suffix}`;
}

/** An existing target must be a regular file the user could write (rename needs only the folder's permission). */
async function checkReplaceable(dir: WorkspaceDir, name: string, existing: Stats, requested: string): Promise<void> {
  if (existing.isSymbolicLink()) throw changedWhileInUse(requested);
  if (existing.isDirectory()) throw new Error(`Path "${requested}" is a directory; write to a file path.`);
  refuseIrregular(existing, requested);
  let probe: FileHandle;
  try {
    probe = await open(dir.entry(name), constants.O_WRONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw changedWhileInUse(requested);
    if (code === "EACCES" || code === "EPERM") {
      throw new Error(
        `File "${requested}" is read-only for this user; make it writable first (chmod u+w) if it should be replaced.`,
      );
    }
    throw error;
  }
  await probe.close();
}

async function keepOwnerAndMode(handle: FileHandle, existing: Stats): Promise<void> {
  // Only root may give a file away; a user may still set a group they belong to. Either may fail.
  await handle.chown(existing.uid, existing.gid).catch(() => undefined);
  // After chown, which clears set-user-ID and set-group-ID bits.
  await handle.chmod(existing.mode & 0o7777);
}
