// The course manifest (packages/pi-course/checkpoints/manifest.json) is the one description of
// every checkpoint; scripts and integrity tests read it through this module only.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../usage-error.js";

/** The repository root (the folder holding the top-level package.json). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

const manifestPath = path.join(repoRoot, "packages/pi-course/checkpoints/manifest.json");

export interface Lab {
  id: string;
  /** The title in the lab's error, `Lab <id> <title> 尚未实现`. */
  title: string;
  /** The chapter's heading for the lab, `实践 <id> · <practice>`. */
  practice: string;
  /** Test-name pattern that selects the lab's focused tests. */
  pattern: string;
  /** How many focused tests the pattern selects. */
  expected: number;
  hint: string;
}

export interface Diagnostic {
  title: string;
  description: string;
  file: string;
  find: string;
  replace: string;
  pattern: string;
  failing: number;
}

export interface Checkpoint {
  id: string;
  title: string;
  chapter: string;
  mode: string;
  package: string;
  parent: { description: string; paths: string[] };
  target: { description: string; paths: string[] };
  teachingFiles: string[];
  /** Teaching file → its starter, both relative to the repository root. */
  starters: Record<string, string>;
  focusedTest: string;
  focusedRun: string;
  build: string;
  firstRed: string;
  labs: Lab[];
  diagnostic: Diagnostic;
}

export interface Manifest {
  checkpoints: Checkpoint[];
}

let cached: Manifest | undefined;

export function loadManifest(): Manifest {
  cached ??= JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  return cached;
}

/** A checkpoint id is two digits, as in the chapter's `npm run checkpoint -w @pi/course -- 07`. */
const CHECKPOINT_ID = /^\d{2}$/;

/**
 * The checkpoint `id`, or a one-line error naming the fix: a malformed id (`7`, `007`, `../07`,
 * empty) or one the manifest does not list.
 */
export function findCheckpoint(id: string): Checkpoint {
  const known = loadManifest().checkpoints.map((checkpoint) => checkpoint.id);
  if (!CHECKPOINT_ID.test(id)) {
    throw new ManifestLookupError(
      `检查点编号 "${id}" 格式不对：请用两位数字，例如 ${known[0] ?? "07"}（可用：${known.join("、")}）。`,
    );
  }
  const checkpoint = loadManifest().checkpoints.find((candidate) => candidate.id === id);
  if (checkpoint === undefined) {
    throw new ManifestLookupError(`没有检查点 ${id}：可用的检查点是 ${known.join("、")}。`);
  }
  return checkpoint;
}

/** A checkpoint id the manifest cannot answer; its message is the one line a CLI prints. */
export class ManifestLookupError extends UsageError {
  override name = "ManifestLookupError";
}

/**
 * Problems in the manifest itself (missing fields, a lab whose counts do not add up, a path
 * that does not exist); empty when it is sound. The integrity tests assert this is empty.
 */
export function validateManifest(manifest: Manifest = loadManifest()): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const checkpoint of manifest.checkpoints) {
    const where = `checkpoint ${String(checkpoint.id)}`;
    if (!CHECKPOINT_ID.test(checkpoint.id)) problems.push(`${where}: id must be two digits`);
    if (ids.has(checkpoint.id)) problems.push(`${where}: duplicate id`);
    ids.add(checkpoint.id);
    const paths = [
      ...checkpoint.parent.paths,
      ...checkpoint.target.paths,
      ...checkpoint.teachingFiles,
      ...Object.values(checkpoint.starters),
      checkpoint.focusedTest,
      checkpoint.diagnostic.file,
    ];
    for (const relative of paths) {
      if (!existsSync(path.join(repoRoot, relative))) problems.push(`${where}: ${relative} does not exist`);
    }
    for (const teaching of checkpoint.teachingFiles) {
      if (!checkpoint.target.paths.includes(teaching))
        problems.push(`${where}: teaching file ${teaching} not in target`);
      if (checkpoint.starters[teaching] === undefined)
        problems.push(`${where}: teaching file ${teaching} has no starter`);
    }
    if (!checkpoint.target.paths.includes(checkpoint.focusedTest)) {
      problems.push(`${where}: focused test ${checkpoint.focusedTest} not in target`);
    }
    const firstLab = checkpoint.labs[0];
    if (firstLab === undefined) problems.push(`${where}: no labs`);
    else if (checkpoint.firstRed !== labError(firstLab)) {
      problems.push(`${where}: firstRed must be "${labError(firstLab)}"`);
    }
    for (const lab of checkpoint.labs) {
      if (!Number.isInteger(lab.expected) || lab.expected < 1) problems.push(`${where}: lab ${lab.id} expected count`);
      if (lab.pattern.trim() === "") problems.push(`${where}: lab ${lab.id} has no pattern`);
    }
    if (checkpoint.diagnostic.find === checkpoint.diagnostic.replace)
      problems.push(`${where}: diagnostic changes nothing`);
  }
  return problems;
}

/** The error a lab's unfinished branch throws in the starter, e.g. `Lab 7.1 收集模型终态 尚未实现`. */
export function labError(lab: Lab): string {
  return `Lab ${lab.id} ${lab.title} 尚未实现`;
}

/** The total number of focused tests: the sum of the labs' expected counts. */
export function focusedTestCount(checkpoint: Checkpoint): number {
  return checkpoint.labs.reduce((sum, lab) => sum + lab.expected, 0);
}
