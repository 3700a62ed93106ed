// `verify --watch`: notices edits under a practice directory and re-runs a job, debounced, one run
// at a time; a save during a run cancels it. Watching is chokidar's: it follows folders that are
// created, deleted or replaced as a whole (editors' atomic saves, `git checkout` replacing src/),
// which a hand-written per-folder fs.watch did not. node_modules holds links into the main
// repository: it is ignored and no link is followed, so only the learner's own files are watched.
// A practice directory that disappears is waited for and watched again once it is back.
import { existsSync } from "node:fs";
import path from "node:path";
import { type FSWatcher, watch } from "chokidar";

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
  /** Resolves once the first scan is done and changes are being reported. */
  ready: Promise<void>;
  /** The folders being watched, relative to the root ("" is the root itself). */
  folders(): string[];
  close(): Promise<void>;
}

/** How often a missing practice directory is looked for. */
const REAPPEAR_POLL_MS = 500;
const SETTLE_MS = 100;

/**
 * Calls `onChange` with the path (relative to `root`) of each change that is not ignored, and with
 * "" when `root` itself disappears or comes back.
 */
export function watchTree(root: string, onChange: (relative: string) => void): TreeWatcher {
  let watcher: FSWatcher | undefined;
  let ready: Promise<void> = Promise.resolve();
  let present = existsSync(root);

  const start = (): void => {
    const current = watch(root, {
      ignoreInitial: true,
      followSymlinks: false,
      ignored: (absolute: string) => {
        const relative = path.relative(root, absolute);
        return relative !== "" && isIgnoredPath(relative);
      },
    });
    current.on("all", (event, absolute) => {
      const relative = path.relative(root, absolute);
      // The root itself went away: stop this watcher now (a new one starts once the root is back).
      if (relative === "" && event === "unlinkDir") checkPresence();
      else onChange(relative);
    });
    // A watcher error (a folder removed mid-scan) must not end the watch: the presence check recovers.
    current.on("error", () => {});
    ready = new Promise((resolve) => current.once("ready", () => resolve()));
    watcher = current;
  };

  const checkPresence = (): void => {
    const now = existsSync(root);
    if (now === present) return;
    present = now;
    void watcher?.close();
    watcher = undefined;
    if (now) start();
    onChange("");
  };
  if (present) start();
  const presence = setInterval(checkPresence, REAPPEAR_POLL_MS);

  return {
    get ready() {
      return ready;
    },
    folders() {
      const watched = watcher?.getWatched() ?? {};
      return Object.keys(watched)
        .map((folder) => path.relative(root, folder))
        .filter((folder) => !folder.startsWith(".."))
        .sort();
    },
    async close() {
      clearInterval(presence);
      // chokidar can open a folder's fs.watch after close() when the folder's scan was still in
      // flight (a folder just created or replaced): let scans settle first.
      await ready;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      await watcher?.close();
    },
  };
}

/**
 * Wraps `job` so that `trigger()` runs it `delayMs` after the last trigger of a burst. A trigger
 * that arrives while it runs aborts the running job's signal and causes exactly one more run
 * after it has ended.
 */
export function debouncedRunner(
  job: (signal: AbortSignal) => Promise<void>,
  delayMs: number,
): { trigger(): void; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let running: AbortController | undefined;
  let again = false;

  const start = async (): Promise<void> => {
    timer = undefined;
    if (running !== undefined) {
      again = true;
      running.abort();
      return;
    }
    const controller = new AbortController();
    running = controller;
    try {
      await job(controller.signal);
    } finally {
      running = undefined;
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
      running?.abort();
    },
  };
}
