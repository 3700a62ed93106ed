// Whose code a practice directory holds, chapter by chapter. `npm run practice` writes the record
// when it makes the tree: its own chapter (the starters the learner fills in) plus, with --from,
// the chapters the earlier tree held as the learner's; every other chapter's teaching files are
// the course's reference, put there when the tree was made. tiny-pi's start line and eval's header
// read it to say exactly which chapters are the learner's. A tree made before the record listed
// chapters has none: then every chapter in it is taken as the learner's, as before.
import { readFileSync } from "node:fs";
import path from "node:path";

/** The file, at a practice tree's root, that marks the tree finished and records whose chapters it holds. */
export const PRACTICE_RECORD = ".pi-course-practice.json";

/** The chapters (checkpoint ids) whose teaching files in `dir` are the learner's; undefined: not recorded. */
export function learnerChapters(dir: string): ReadonlySet<string> | undefined {
  try {
    const record = JSON.parse(readFileSync(path.join(dir, PRACTICE_RECORD), "utf8")) as { learner?: unknown };
    const listed = record.learner;
    if (!Array.isArray(listed) || !listed.every((id) => typeof id === "string")) return undefined;
    return new Set(listed);
  } catch {
    return undefined;
  }
}

/** `第 10、11、12 章` (ids in course order as given). */
export function chapterList(ids: readonly string[]): string {
  return `第 ${ids.join("、")} 章`;
}
