// Given (not a lab): the folder a checked path lives in, held open while a tool uses it, so that
// swapping a folder on the path for a symlink between resolveWorkspacePath() and the I/O cannot
// send the I/O outside. Node has no openat(): on Linux the folder is walked one component at a
// time with O_NOFOLLOW from the root, and every name is then used as /proc/self/fd/N/name, which
// the kernel looks up in the folder the descriptor holds. Elsewhere a file is opened by its path
// without following a final link, and verify() then checks that the path still leads, link-free,
// to the very file that was opened. docs/security.md explains both and their limits.
import { existsSync, type Stats } from "node:fs";
import { constants, type FileHandle, lstat, mkdir, open, realpath, rmdir } from "node:fs/promises";
import path from "node:path";
import { isInside, workspaceRealPath } from "./workspace-path.js";

const { O_RDONLY } = constants;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
/** Missing on Windows: there a final link is caught by verify(). */
export const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** A FIFO opened for reading does not wait for a writer (it is refused right after). */
export const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

let procFds = process.platform === "linux" && existsSync("/proc/self/fd");

/** Tests run the other platforms' mechanism on Linux too. */
export function useProcFds(enabled: boolean): void {
  procFds = enabled && process.platform === "linux" && existsSync("/proc/self/fd");
}

export interface WorkspaceDir {
  /** A path naming `name` in this folder, looked up in the folder itself, never re-resolved from the root. */
  entry(name: string): string;
  /**
   * Throws unless `handle` is the file at entry(name) of the folder that was checked. A no-op on
   * Linux, where entry() cannot leave the folder; elsewhere it re-resolves and compares inodes.
   */
  verify(handle: FileHandle, name: string): Promise<void>;
}

/**
 * Runs `use` with the folder holding the real path `file` (from resolveWorkspacePath) open, then
 * closes it. `create` makes the missing folders on the way, each one inside the last.
 * The workspace root itself has no folder in the workspace: it is refused as a directory (EISDIR).
 */
export async function withParentDir<T>(
  root: string,
  file: string,
  requested: string,
  create: boolean,
  use: (dir: WorkspaceDir, name: string) => Promise<T>,
): Promise<T> {
  const realRoot = await workspaceRealPath(root);
  if (file === realRoot) throw Object.assign(new Error(`Path "${requested}" is a directory.`), { code: "EISDIR" });
  const folders = path.relative(realRoot, path.dirname(file)).split(path.sep).filter(Boolean);
  const name = path.basename(file);
  if (!procFds) return use(await pathDir(realRoot, folders, requested, create), name);
  const handle = await heldDir(realRoot, folders, requested, create);
  try {
    return await use(fdDir(handle), name);
  } finally {
    await handle.close();
  }
}

/** The error for a path that changed between the check and its use. */
export function changedWhileInUse(requested: string): Error {
  return new Error(
    `Path "${requested}" changed while in use (a folder or file on it was replaced, e.g. by a symlink); check it and try again.`,
  );
}

async function heldDir(realRoot: string, folders: string[], requested: string, create: boolean): Promise<FileHandle> {
  let dir = await open(realRoot, O_RDONLY | O_DIRECTORY);
  try {
    for (const folder of folders) {
      const next = `/proc/self/fd/${dir.fd}/${folder}`;
      if (create) await mkdir(next).catch(ignoreExists);
      const opened = await open(next, O_RDONLY | O_DIRECTORY | O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
        // The real path had no link here when it was checked: a link or a file now means a swap.
        if (error.code === "ELOOP" || error.code === "ENOTDIR") throw changedWhileInUse(requested);
        throw error;
      });
      await dir.close();
      dir = opened;
    }
    return dir;
  } catch (error) {
    await dir.close();
    throw error;
  }
}

function fdDir(handle: FileHandle): WorkspaceDir {
  return {
    entry: (name) => `/proc/self/fd/${handle.fd}/${name}`,
    verify: async () => undefined,
  };
}

async function pathDir(realRoot: string, folders: string[], requested: string, create: boolean): Promise<WorkspaceDir> {
  let dir = realRoot;
  for (const folder of folders) {
    dir = path.join(dir, folder);
    const made = create && (await mkdir(dir).then(() => true, ignoreExists));
    const real = await realpath(dir);
    if (real !== dir) {
      // Made through a link swapped in just now, it may be outside: empty, so take it back if it is still there.
      if (made) await rmdir(real).catch(() => undefined);
      throw changedWhileInUse(requested);
    }
  }
  return {
    entry: (name) => path.join(dir, name),
    async verify(handle, name) {
      const entry = path.join(dir, name);
      const [real, opened, current] = await Promise.all([
        realpath(entry).catch(() => undefined),
        handle.stat({ bigint: true }),
        lstat(entry, { bigint: true }).catch(() => undefined),
      ]);
      const same = current !== undefined && current.ino === opened.ino && current.dev === opened.dev;
      if (real !== entry || !same || !isInside(realRoot, real)) throw changedWhileInUse(requested);
    },
  };
}

function ignoreExists(error: NodeJS.ErrnoException): false {
  if (error.code !== "EEXIST") throw error;
  return false;
}

/**
 * Opens the regular file `name` of `dir` for reading: anything else (a FIFO, a device, a socket)
 * is refused by lstat before it is opened, as opening a FIFO waits for a writer forever. A final
 * symlink is not followed: the real path has none, so one now is a swap.
 */
export async function openRegularFile(dir: WorkspaceDir, name: string, requested: string): Promise<FileHandle> {
  const entry = dir.entry(name);
  const before = await lstat(entry);
  if (before.isSymbolicLink()) throw changedWhileInUse(requested);
  refuseIrregular(before, requested);
  const handle = await open(entry, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const opened = await handle.stat();
    if (opened.ino !== before.ino || opened.dev !== before.dev) throw changedWhileInUse(requested);
    await dir.verify(handle, name);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Throws for anything but a regular file; a directory keeps the EISDIR code callers name it by. */
export function refuseIrregular(info: Stats, requested: string): void {
  if (info.isFile()) return;
  if (info.isDirectory()) throw Object.assign(new Error(`Path "${requested}" is a directory.`), { code: "EISDIR" });
  const kind = info.isFIFO() ? "a named pipe" : info.isSocket() ? "a socket" : "a device";
  throw new Error(`Path "${requested}" is ${kind}, not a regular file; the tools read and write only regular files.`);
}
