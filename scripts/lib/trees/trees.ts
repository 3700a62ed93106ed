// Writes a checkpoint as a complete, buildable, isolated workspace:
//   parent   = the previous checkpoint's target (course/snapshots.ts rebuilds it)
//   target   = the chapter's finished code and focused tests
//   practice = target with each teaching file replaced by its starter
// A tree holds only the files its checkpoint names; package.json and tsconfig.json files are
// trimmed to the packages inside it (package-files.ts).
// Each tree has its own workspace root (tree-root.ts), links the shared toolchain from the main
// node_modules instead of copying it (tree-links.ts), and is written safely (target-dir.ts).
// dist/ and *.tsbuildinfo are never copied.
import fs from "node:fs/promises";
import path from "node:path";
import { cleanupOnSignal } from "../cleanup-on-signal.js";
import { type Checkpoint, repoRoot } from "../course/manifest.js";
import { parentFiles, targetFiles } from "../course/snapshots.js";
import { explainFsFault } from "./fs-faults.js";
import { trimPackageFiles, verifyScript, workspaceNames } from "./package-files.js";
import { writePracticeMarker } from "./practice-marker.js";
import { abandonTree, checkTargetDir, makeTempSibling, moveIntoPlace, type Rename, removeTree } from "./target-dir.js";
import { toPosix, writeFileIn } from "./tree-fs.js";
import { linkNodeModules, toolchainPackages } from "./tree-links.js";
import { rootPackageJson, rootTsconfig, workspacePackages } from "./tree-root.js";

export type TreeKind = "parent" | "target" | "practice";

export interface WriteTreeOptions {
  /** Repository-relative path → content; replaces or adds files (mutants, extra tests). */
  files?: Record<string, string>;
  /** Moves the finished tree into place; replaceable so tests can make that last step fail. */
  rename?: Rename;
  /** Practice trees: the chapters whose teaching files are the learner's (default: the checkpoint's own). */
  learner?: readonly string[];
}

/**
 * Writes the `kind` tree of `checkpoint` into the new directory `dir` (which must not exist, or
 * be empty, and whose parent must exist). Built in a temporary sibling and renamed into place,
 * so a failure leaves nothing behind. Throws UsageError for a target the user must change.
 */
export async function writeCheckpointTree(
  checkpoint: Checkpoint,
  kind: TreeKind,
  dir: string,
  options: WriteTreeOptions = {},
): Promise<void> {
  const target = path.resolve(dir);
  const replaceEmptyDir = await checkTargetDir(target);
  const files = await treeFiles(checkpoint, kind, options.files ?? {});
  const packages = workspacePackages(files);

  const release = cleanupOnSignal(() => abandonTree(target, replaceEmptyDir));
  let tmp: string;
  try {
    tmp = await makeTempSibling(target);
  } catch (error) {
    release();
    throw error;
  }
  const links: string[] = [];
  try {
    // Written from treeFiles' contents, not fs-extra's copy with a filter: a tree's files are not
    // the repository's as they are (starters swapped in, repo scripts dropped, mutants applied).
    for (const [relative, content] of files) await writeFileIn(tmp, relative, content);
    await writeFileIn(tmp, "tsconfig.json", `${JSON.stringify(rootTsconfig(packages), null, 2)}\n`);
    const toolchain = await toolchainPackages(packages);
    const rootJson = rootPackageJson(treePackageName(checkpoint, kind), target, packages, toolchain);
    // `npm run verify` inside a practice tree checks that tree (verify finds the tree it is run in).
    if (kind === "practice") Object.assign((rootJson as { scripts: object }).scripts, { verify: verifyScript() });
    await writeFileIn(tmp, "package.json", `${JSON.stringify(rootJson, null, 2)}\n`);
    await linkNodeModules(tmp, target, packages, toolchain, links);
    if (kind === "practice") {
      await writePracticeMarker(tmp, target, checkpoint.id, options.learner ?? [checkpoint.id]);
    }
    await moveIntoPlace(tmp, target, replaceEmptyDir, options.rename);
  } catch (error) {
    await removeTree(tmp, links);
    throw explainFsFault(error, target);
  } finally {
    release();
  }
  // mkdtemp made the folder 0700; give the learner's directory ordinary permissions.
  await fs.chmod(target, 0o755);
}

/** The workspace-root package name of a `kind` tree of `checkpoint`: it tells such a tree from any other folder. */
export function treePackageName(checkpoint: Checkpoint, kind: TreeKind): string {
  return `pi-course-${kind}-${checkpoint.id}`;
}

/** The repository-relative files of a tree with their contents, in a stable order. */
export async function treeFiles(
  checkpoint: Checkpoint,
  kind: TreeKind,
  extra: Record<string, string> = {},
): Promise<Map<string, string>> {
  const files = kind === "parent" ? parentFiles(checkpoint) : targetFiles(checkpoint);
  if (kind === "practice") {
    for (const [teaching, starter] of Object.entries(checkpoint.starters)) {
      files.set(teaching, await fs.readFile(path.join(repoRoot, starter), "utf8"));
    }
  }
  for (const [relative, content] of Object.entries(extra)) files.set(treeRelative(relative), content);
  return trimPackageFiles(files, workspaceNames());
}

/** A path for `options.files`: relative, inside the tree, posix separators. */
function treeRelative(relative: string): string {
  const normalized = path.posix.normalize(toPosix(relative));
  if (path.isAbsolute(relative) || normalized === "." || normalized.startsWith("../")) {
    throw new Error(`tree file path must be relative and inside the tree: "${relative}"`);
  }
  return normalized;
}
