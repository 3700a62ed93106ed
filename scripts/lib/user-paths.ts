// Where a learner means: relative paths are resolved from the folder they ran npm in
// (INIT_CWD), not from the workspace folder npm switches to for `-w @pi/course`.
import { lstatSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./course/manifest.js";
import { UsageError } from "./usage-error.js";

/** The folder the learner ran the command in. */
export function invocationDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.INIT_CWD ?? process.cwd();
}

/** A directory argument resolved against the invocation folder; an empty argument is a UsageError. */
export function resolveUserDir(input: string, from: string = invocationDir()): string {
  if (input.trim() === "") throw new UsageError("目录参数为空：请给出一个新目录，例如 practice/my-07。");
  return path.resolve(from, input);
}

/** `dir` as the learner should type it after `cd`: relative when below `from`, quoted for the shell when needed. */
export function displayDir(dir: string, from: string = invocationDir(), platform = process.platform): string {
  const relative = path.relative(from, dir);
  const shown = relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : dir;
  return shellWord(shown, platform);
}

/**
 * The practice directory as verify names it: relative to where the learner stands, or, when they
 * stand in it, relative to the course repository `root` (`practice/07-2`, the name the course gives it).
 */
export function practiceDirShown(dir: string, from: string, root: string, platform = process.platform): string {
  return displayDir(dir, path.relative(from, dir) === "" ? root : from, platform);
}

/**
 * `word` as one shell word meaning that path: `./-` for a name that starts with `-` (`cd -` goes
 * back), single quotes for POSIX shells when it holds anything but plain path characters (`x&y`,
 * `it's`, spaces), double quotes for cmd.exe and PowerShell.
 */
export function shellWord(word: string, platform: NodeJS.Platform = process.platform): string {
  const windows = platform === "win32";
  const safe = word.startsWith("-") ? `.${windows ? "\\" : "/"}${word}` : word;
  if (windows) return /[\s&()^|<>%!;,=']/.test(safe) ? `"${safe}"` : safe;
  return /^[\w./:@+,=\u0080-\uffff-]+$/u.test(safe) ? safe : `'${safe.replaceAll("'", "'\\''")}'`;
}

/** The folder that holds learners' practice directories (git-ignored apart from its README). */
export const practiceRoot = path.join(repoRoot, "practice");

/** The first free name among `<root>/07`, `<root>/07-2`, `<root>/07-3`, … */
export function nextPracticeDir(id: string, root: string = practiceRoot): string {
  for (let n = 1; ; n += 1) {
    const candidate = path.join(root, n === 1 ? id : `${id}-${n}`);
    if (!exists(candidate)) return candidate;
  }
}

// lstat, not fs-extra's pathExists (which follows links): a dangling link named 07 still takes the name.
function exists(candidate: string): boolean {
  try {
    lstatSync(candidate);
    return true;
  } catch {
    return false;
  }
}
