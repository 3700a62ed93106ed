// The course manifest (packages/pi-course/checkpoints/manifest.json) is the one description of
// every checkpoint; scripts and integrity tests read it through this module only.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../usage-error.js";
import { changedFiles, checkpointFolder, snapshotProblems } from "./snapshots.js";

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
  /** The chapter guide kept in this repository (a Markdown path); absent when the chapter is published elsewhere. */
  guide?: string;
  mode: string;
  package: string;
  /**
   * The code before the chapter. Only the first checkpoint lists its `files`; every later parent is
   * exactly the previous checkpoint's target (see snapshots.ts).
   */
  parent: { description: string; files?: string[] };
  /**
   * The code after the chapter: the parent, plus the files in `adds`, with the files the chapter
   * changes in their new version (their old version is kept in `checkpoints/<id>/before/`).
   */
  target: { description: string; adds: string[] };
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
  /** For the instructor reading the file: how the format works. Not read by the machinery. */
  about?: string[];
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
 * Problems in the manifest itself (a missing or mistyped field, a lab whose counts do not add up,
 * a path that does not exist, snapshots that do not fit together); empty when it is sound.
 * The integrity tests assert this is empty; `npm run checkpoint -- --check` prints it.
 */
export function validateManifest(manifest: Manifest = loadManifest()): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  if (!Array.isArray(manifest.checkpoints) || manifest.checkpoints.length === 0) {
    return ["manifest: `checkpoints` must be a non-empty array, in course order"];
  }
  for (const [index, checkpoint] of manifest.checkpoints.entries()) {
    const where = `checkpoint ${String(checkpoint.id)}`;
    const shape = shapeProblems(checkpoint, index === 0);
    if (shape.length > 0) {
      problems.push(...shape.map((problem) => `${where}: ${problem}`));
      continue;
    }
    if (!CHECKPOINT_ID.test(checkpoint.id)) problems.push(`${where}: id must be two digits`);
    if (ids.has(checkpoint.id)) problems.push(`${where}: duplicate id`);
    if ([...ids].some((earlier) => earlier >= checkpoint.id)) problems.push(`${where}: ids must rise in course order`);
    ids.add(checkpoint.id);
    const paths = [...Object.values(checkpoint.starters), checkpoint.diagnostic.file];
    if (checkpoint.guide !== undefined) paths.push(checkpoint.guide);
    for (const relative of paths) {
      if (!existsSync(path.join(repoRoot, relative))) problems.push(`${where}: ${relative} does not exist`);
    }
    const ownFiles = new Set([...checkpoint.target.adds, ...changedFiles(checkpoint)]);
    for (const teaching of checkpoint.teachingFiles) {
      if (!ownFiles.has(teaching)) {
        problems.push(`${where}: teaching file ${teaching} is neither added nor changed by this checkpoint`);
      }
      if (checkpoint.starters[teaching] === undefined)
        problems.push(`${where}: teaching file ${teaching} has no starter`);
    }
    if (!checkpoint.target.adds.includes(checkpoint.focusedTest)) {
      problems.push(`${where}: focused test ${checkpoint.focusedTest} is not in target.adds`);
    }
    if (!ownFiles.has(checkpoint.diagnostic.file)) {
      problems.push(`${where}: diagnostic.file must be a file this checkpoint adds or changes`);
    }
    const firstLab = checkpoint.labs[0];
    if (firstLab === undefined) problems.push(`${where}: no labs`);
    else if (checkpoint.firstRed !== labError(firstLab)) {
      problems.push(`${where}: firstRed must be "${labError(firstLab)}"`);
    }
    for (const [position, lab] of checkpoint.labs.entries()) {
      const expectedId = `${Number(checkpoint.id)}.${position + 1}`;
      if (lab.id !== expectedId) problems.push(`${where}: lab ${lab.id} should be numbered ${expectedId}`);
      if (!Number.isInteger(lab.expected) || lab.expected < 1) problems.push(`${where}: lab ${lab.id} expected count`);
      if (lab.pattern.trim() === "") problems.push(`${where}: lab ${lab.id} has no pattern`);
    }
    if (checkpoint.diagnostic.find === checkpoint.diagnostic.replace)
      problems.push(`${where}: diagnostic changes nothing`);
    if (checkpoint.build !== `npm run build -w ${checkpoint.package}`) {
      problems.push(`${where}: build must be "npm run build -w ${checkpoint.package}"`);
    }
    problems.push(...guideProblems(checkpoint).map((problem) => `${where}: ${problem}`));
  }
  if (problems.length > 0) return problems;
  return snapshotProblems(manifest);
}

const STRING_FIELDS = ["id", "title", "chapter", "mode", "package", "focusedTest", "focusedRun", "build", "firstRed"];
const LAB_FIELDS = ["id", "title", "practice", "pattern", "hint"];
const DIAGNOSTIC_FIELDS = ["title", "description", "file", "find", "replace", "pattern"];

/** Fields that are missing or of the wrong type, so the rest of the checks can trust the shape. */
function shapeProblems(checkpoint: Checkpoint, first: boolean): string[] {
  const problems: string[] = [];
  const record = checkpoint as unknown as Record<string, unknown>;
  for (const field of STRING_FIELDS) {
    if (typeof record[field] !== "string") problems.push(`"${field}" must be a string`);
  }
  if (checkpoint.guide !== undefined && !/^packages\/.+\.md$/.test(checkpoint.guide)) {
    problems.push(
      `"guide" must be the repository path of a Markdown file, e.g. ${checkpointFolder(checkpoint)}/README.md`,
    );
  }
  const isStrings = (value: unknown) => Array.isArray(value) && value.every((entry) => typeof entry === "string");
  if (typeof checkpoint.parent?.description !== "string") problems.push(`"parent.description" must be a string`);
  if (first && !isStrings(checkpoint.parent?.files)) {
    problems.push(`"parent.files" must list the first checkpoint's parent files`);
  }
  if (!first && checkpoint.parent?.files !== undefined) {
    problems.push(`"parent.files" is only for the first checkpoint: a later parent is the previous target`);
  }
  if (typeof checkpoint.target?.description !== "string") problems.push(`"target.description" must be a string`);
  if (!isStrings(checkpoint.target?.adds)) problems.push(`"target.adds" must list the files the checkpoint adds`);
  if (!isStrings(checkpoint.teachingFiles)) problems.push(`"teachingFiles" must be an array of paths`);
  const starters = checkpoint.starters as unknown;
  if (typeof starters !== "object" || starters === null || !isStrings(Object.values(starters))) {
    problems.push(`"starters" must map each teaching file to its starter`);
  }
  if (!Array.isArray(checkpoint.labs)) problems.push(`"labs" must be an array`);
  for (const lab of Array.isArray(checkpoint.labs) ? checkpoint.labs : []) {
    const fields = lab as unknown as Record<string, unknown>;
    for (const field of LAB_FIELDS) {
      if (typeof fields[field] !== "string") problems.push(`lab "${field}" must be a string`);
    }
    if (typeof lab.expected !== "number") problems.push(`lab ${String(lab.id)} "expected" must be a number`);
  }
  const diagnostic = checkpoint.diagnostic as unknown as Record<string, unknown> | undefined;
  for (const field of DIAGNOSTIC_FIELDS) {
    if (typeof diagnostic?.[field] !== "string") problems.push(`diagnostic "${field}" must be a string`);
  }
  if (typeof diagnostic?.failing !== "number") problems.push(`diagnostic "failing" must be a number`);
  return problems;
}

/**
 * A guide kept in the repository must carry every lab's box (`实践 <id> · <practice>`), and each
 * lab's hint must point at one of its headings (`见指南“<heading>”`).
 */
function guideProblems(checkpoint: Checkpoint): string[] {
  if (checkpoint.guide === undefined || !existsSync(path.join(repoRoot, checkpoint.guide))) return [];
  const guide = readFileSync(path.join(repoRoot, checkpoint.guide), "utf8");
  const headings = new Set([...guide.matchAll(/^#{1,6} (.+)$/gm)].map((match) => match[1]?.trim()));
  const problems: string[] = [];
  for (const lab of checkpoint.labs) {
    if (!guide.includes(`实践 ${lab.id} · ${lab.practice}`)) {
      problems.push(`guide has no box "实践 ${lab.id} · ${lab.practice}"`);
    }
    const section = /见指南“([^”]+)”/.exec(lab.hint)?.[1];
    if (section === undefined) problems.push(`lab ${lab.id} hint must point at a guide section: 见指南“<heading>”`);
    else if (!headings.has(section))
      problems.push(`lab ${lab.id} hint points at "${section}", not a heading of the guide`);
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
