// `verify --watch`: notices edits under a folder and re-runs a job, debounced, one run at a time.
// fs.watch's `recursive` option is not dependable on Linux under Node 20, so every folder is
// watched on its own and folders created later are picked up as they appear. A practice
// directory's node_modules holds links into the main repository: it is skipped, and no link
// to a folder is ever followed, so only the learner's own files are watched.
import { type FSWatcher, lstatSync, readdirSync, watch } from "node:fs";
import path from "node:path";

/** Build output, installs and editor droppings are not the learner's edits. */
export function isIgnoredPath(relative: string): boolean {
  const parts = relative.split(/[\\/]/);
  const name = parts.at(-1) ?? "";
  return (
    parts.some((part) => part === "dist" || part === "node_modules" || part === ".git") ||
    name.endsWith(".tsbuildinfo") ||
    name.endsWith("~") ||
    name.endsWith(".swp") ||
    name.startsWith(".#")
  );
}

export interface TreeWatcher {
  /** The folders being watched, relative to the root ("" is the root itself). */
  folders(): string[];
  close(): void;
}

/** Calls `onChange` with the path (relative to `root`) of each change that is not ignored. */
export function watchTree(root: string, onChange: (relative: string) => void): TreeWatcher {
  const watchers = new Map<string, FSWatcher>();

  const watchFolder = (folder: string): void => {
    if (watchers.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, (_event, filename) => {
        if (filename === null) return;
        const absolute = path.join(folder, filename.toString());
        const relative = path.relative(root, absolute);
        if (isIgnoredPath(relative)) return;
        if (isFolder(absolute)) addTree(absolute);
        onChange(relative);
      });
    } catch {
      return; // removed between listing and watching
    }
    // A watched folder that is deleted ends its watcher; forget it so a new one can be made.
    watcher.on("error", () => {
      watcher.close();
      watchers.delete(folder);
    });
    watchers.set(folder, watcher);
  };

  const addTree = (folder: string): void => {
    watchFolder(folder);
    let entries: string[];
    try {
      entries = readdirSync(folder);
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = path.join(folder, entry);
      if (!isIgnoredPath(path.relative(root, child)) && isFolder(child)) addTree(child);
    }
  };

  addTree(root);
  return {
    folders: () => [...watchers.keys()].map((folder) => path.relative(root, folder)).sort(),
    close() {
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/** A real folder: a link to one (lstat) does not count. */
function isFolder(absolute: string): boolean {
  try {
    return lstatSync(absolute).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Wraps `job` so that `trigger()` runs it `delayMs` after the last trigger of a burst, and a
 * trigger that arrives while it runs causes exactly one more run afterwards.
 */
export function debouncedRunner(job: () => Promise<void>, delayMs: number): { trigger(): void; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;

  const start = async (): Promise<void> => {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await job();
    } finally {
      running = false;
      if (again) {
        again = false;
        trigger();
      }
    }
  };
  const trigger = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => void start(), delayMs);
  };
  return {
    trigger,
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
