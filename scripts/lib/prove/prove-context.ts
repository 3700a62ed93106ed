// The trees the integrity checks of one or more checkpoints share: each checkpoint's target,
// written and built once; its finished practice directory, made once. A run of several
// checkpoints (npm run test:course) shares them along the chain; `--prove NN` makes only what
// checkpoint NN needs. Child work goes through one queue sized to the machine, so twenty
// checkpoints do not start two hundred compilers at once.
import { mkdtempSync } from "node:fs";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { cleanupOnSignal } from "../cleanup-on-signal.js";
import { practice } from "../cli/practice-command.js";
import { writeTree } from "../cli/write-tree-command.js";
import type { Checkpoint } from "../course/manifest.js";
import { repoRoot } from "../course/manifest.js";
import { targetFiles } from "../course/snapshots.js";
import { type BuildResult, npmBuild } from "../run/focused-run.js";
import { taskSlots } from "../run/task-slots.js";
import { ownedPrefix, removeLeftovers, removeTreeAsync, removeTreeSync } from "../trees/owned-temp.js";
import { practiceRoot } from "../user-paths.js";

const OUTSIDE_PREFIX = "pi-course-prove-";
const INSIDE_PREFIX = ".prove-";

/** A comment a learner might leave in their own file: it proves which copy a tree holds. */
export const LEARNER_MARK = "// written by the learner\n";

export class ProveContext {
  private readonly targets = new Map<string, Promise<BuildResult>>();
  private readonly written = new Map<string, Promise<void>>();
  private readonly finished = new Map<string, Promise<string>>();

  private constructor(
    /** Under the system temp folder: targets, parents, practice directories outside the repository. */
    readonly outside: string,
    /** Under practice/ in the repository, as a learner's default practice/07 is. */
    readonly inside: string,
    slots: number,
  ) {
    this.inSlot = taskSlots(slots);
  }

  private readonly inSlot: <T>(work: () => Promise<T>) => Promise<T>;

  /**
   * Makes both folders (named for this process, so a later run removes what a killed one left) and
   * removes them on a signal.
   */
  static async create(slots = os.availableParallelism() + 1): Promise<ProveContext> {
    const made: string[] = [];
    // Installed before the first folder exists: a signal that lands between the two is handled too.
    const release = cleanupOnSignal(() => {
      for (const dir of made) removeTreeSync(dir);
    });
    for (const [parent, prefix] of [
      [os.tmpdir(), OUTSIDE_PREFIX],
      [practiceRoot, INSIDE_PREFIX],
    ] as const) {
      await removeLeftovers(parent, (name) => (name.startsWith(prefix) ? name.slice(prefix.length) : undefined));
      made.push(mkdtempSync(path.join(parent, ownedPrefix(prefix))));
    }
    const [outside = "", inside = ""] = made;
    const context = new ProveContext(outside, inside, Math.max(2, slots));
    context.release = release;
    return context;
  }

  private release: () => void = () => {};

  async dispose(): Promise<void> {
    await removeTreeAsync(this.outside);
    await removeTreeAsync(this.inside);
    this.release();
  }

  /** Runs `work` when a slot is free: builds and focused runs of many trees take turns. */
  limit<T>(work: () => Promise<T>): Promise<T> {
    return this.inSlot(work);
  }

  targetDir(checkpoint: Checkpoint): string {
    return path.join(this.outside, `target-${checkpoint.id}`);
  }

  /** practice/.prove-…/<id>: the practice directory made by the learner's command inside the repository. */
  insidePractice(checkpoint: Checkpoint): string {
    return path.join(this.inside, checkpoint.id);
  }

  /** The target tree, written by `checkpoint --write target` (once). */
  writeTarget(checkpoint: Checkpoint): Promise<void> {
    return memo(this.written, checkpoint.id, async () => {
      await writeTree(checkpoint, "target", this.targetDir(checkpoint), this.outside, false);
    });
  }

  /** The target tree, written and built with `npm run build` (once). */
  builtTarget(checkpoint: Checkpoint): Promise<BuildResult> {
    return memo(this.targets, checkpoint.id, async () => {
      await this.writeTarget(checkpoint);
      return this.limit(() => npmBuild(this.targetDir(checkpoint), ["run", "build"]));
    });
  }

  /**
   * The checkpoint's practice directory inside the repository with every teaching file the
   * target's plus a learner's comment: what `--from` carries into the next checkpoint. Made by
   * the learner's command unless the practice check made it already.
   */
  finishedPractice(checkpoint: Checkpoint): Promise<string> {
    return memo(this.finished, checkpoint.id, async () => {
      const dir = this.insidePractice(checkpoint);
      await practice([checkpoint.id, dir], repoRoot);
      await finishWithTarget(checkpoint, dir);
      return dir;
    });
  }

  /** Records that the practice check left `dir` finished, so `finishedPractice` does not make it again. */
  markFinished(checkpoint: Checkpoint, dir: string): void {
    this.finished.set(checkpoint.id, Promise.resolve(dir));
  }
}

/** Puts the target's teaching files, each with the learner's mark, into the practice directory `dir`. */
export async function finishWithTarget(checkpoint: Checkpoint, dir: string): Promise<void> {
  const target = targetFiles(checkpoint);
  for (const file of checkpoint.teachingFiles) {
    const where = path.join(dir, ...file.split("/"));
    await writeFile(where, target.get(file) ?? "");
    await appendFile(where, LEARNER_MARK);
  }
}

/** The starters' contents, by teaching file. */
export async function starterFiles(checkpoint: Checkpoint): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(checkpoint.starters).map(
      async ([file, starter]) => [file, await readFile(path.join(repoRoot, starter), "utf8")] as const,
    ),
  );
  return Object.fromEntries(entries);
}

function memo<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let promise = cache.get(key);
  if (promise === undefined) {
    promise = make();
    // Awaited by whichever check needs it; never an unhandled rejection meanwhile.
    promise.catch(() => undefined);
    cache.set(key, promise);
  }
  return promise;
}
