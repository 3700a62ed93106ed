// `checkpoint --lab 7.N`: the part of a teaching file's starter → target change that belongs to
// one lab. The starter already says where each lab's code goes: its unfinished branches throw
// `Lab 7.N … 尚未实现` under `// Lab 7.N` comments. Each changed block of the starter → target
// diff belongs to the labs its starter side names; the lab's patch applies only those blocks.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createTwoFilesPatch, diffLines } from "diff";
import { verifyCommand } from "../commands.js";
import { type Checkpoint, type Lab, repoRoot } from "../course/manifest.js";
import { targetFiles } from "../course/snapshots.js";
import { UsageError } from "../usage-error.js";

/** One changed block of the diff: starter lines replaced by target lines. */
export interface ChangeBlock {
  /** The starter's lines of the block (empty for a pure insertion). */
  removed: string[];
  /** The target's lines of the block (empty for a pure deletion). */
  added: string[];
  /** Ids of the labs the block belongs to; empty for changes outside every lab (comments, extras). */
  labs: string[];
}

/** The starter → target diff of one file as unchanged runs and changed blocks, in order. */
export type Segment = { kind: "same"; lines: string[] } | ({ kind: "change" } & ChangeBlock);

export interface LabChange {
  /** The teaching file, relative to the repository root. */
  file: string;
  /** The blocks of this lab. */
  blocks: ChangeBlock[];
  /** A unified diff from the starter to the starter with only this lab's blocks applied. */
  patch: string;
}

/** Splits text into lines that keep their line endings, so joining them gives the text back. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Labs named by `Lab <id>` in the lines (`Lab 7.1` does not match inside `Lab 7.10`). */
function labsNamed(lines: string[], labIds: string[]): string[] {
  return labIds.filter((id) => {
    const mention = new RegExp(`Lab ${id.replace(/\./g, "\\.")}(?![\\d.])`);
    return lines.some((line) => mention.test(line));
  });
}

/**
 * The diff of `starter` → `target` as segments, each changed block labelled with its labs:
 * - the labs its starter lines name;
 * - else those of the nearest block that names labs, when at most one unchanged line lies
 *   between them (e.g. a line inserted right before a lab's stub), the following one first;
 * - else, for a block that changes code, the first lab, whose patch must carry what every later
 *   lab builds on (a helper the starter left out); a comment-only block belongs to no lab.
 */
export function labSegments(starter: string, target: string, labIds: string[]): Segment[] {
  const segments: Segment[] = [];
  for (const part of diffLines(starter, target)) {
    const lines = splitLines(part.value);
    const last = segments.at(-1);
    if (!part.added && !part.removed) {
      segments.push({ kind: "same", lines });
    } else if (last?.kind === "change") {
      (part.added ? last.added : last.removed).push(...lines);
    } else {
      segments.push({ kind: "change", removed: part.removed ? lines : [], added: part.added ? lines : [], labs: [] });
    }
  }
  const named = segments.map((segment) => (segment.kind === "change" ? labsNamed(segment.removed, labIds) : []));
  for (const [index, segment] of segments.entries()) {
    if (segment.kind !== "change") continue;
    segment.labs = named[index] ?? [];
    if (segment.labs.length > 0) continue;
    // A lab's comments stand above the place its code goes: prefer the block that follows.
    const near = [nearestNamed(segments, named, index, 1), nearestNamed(segments, named, index, -1)].find(
      (side) => side !== undefined && side.gap <= 1,
    );
    if (near !== undefined) segment.labs = near.labs;
    else if (!isCommentOnly(segment)) segment.labs = labIds.slice(0, 1);
  }
  return segments;
}

interface NamedNeighbour {
  /** Unchanged lines between the two blocks. */
  gap: number;
  labs: string[];
}

/** The nearest block in `direction` whose own starter lines name labs. */
function nearestNamed(
  segments: Segment[],
  named: string[][],
  index: number,
  direction: 1 | -1,
): NamedNeighbour | undefined {
  let gap = 0;
  for (let i = index + direction; i >= 0 && i < segments.length; i += direction) {
    const segment = segments[i];
    if (segment?.kind === "same") gap += segment.lines.length;
    else if ((named[i]?.length ?? 0) > 0) return { gap, labs: named[i] ?? [] };
  }
  return undefined;
}

/** A block whose every line is blank or a comment: it changes what the file says, not what it does. */
function isCommentOnly(block: ChangeBlock): boolean {
  return [...block.removed, ...block.added].every((line) => /^\s*($|\/\/|\/\*|\*)/.test(line));
}

/** The starter with only the blocks of `labId` applied. */
export function applyLab(segments: Segment[], labId: string): string {
  return applyLabs(segments, [labId]);
}

/** The starter with every block that belongs to one of `labIds` applied. */
export function applyLabs(segments: Segment[], labIds: string[]): string {
  return segments
    .flatMap((segment) => {
      if (segment.kind === "same") return segment.lines;
      return segment.labs.some((id) => labIds.includes(id)) ? segment.added : segment.removed;
    })
    .join("");
}

/** The teaching files with the labs up to one lab completed from the target. */
export interface LabStage {
  lab: Lab;
  /** Teaching file → its content at this stage. */
  files: Record<string, string>;
  /** Later labs some of whose code (not just comments) arrived early, in a block shared with this lab or an earlier one. */
  early: string[];
}

/**
 * The teaching files after each lab, in order: stage N is every starter with the blocks of labs
 * 1…N applied from the target (a block shared with a later lab arrives with the first). The
 * integrity tests build each stage and expect the manifest's running counts.
 */
export function labStages(checkpoint: Checkpoint): LabStage[] {
  const labIds = checkpoint.labs.map((lab) => lab.id);
  const target = targetFiles(checkpoint);
  const segmentsOf = Object.entries(checkpoint.starters).map(
    ([file, starter]) => [file, labSegments(readRepo(starter), target.get(file) ?? "", labIds)] as const,
  );
  return checkpoint.labs.map((lab, index) => {
    const done = labIds.slice(0, index + 1);
    const applied = segmentsOf.flatMap(([, segments]) =>
      segments.flatMap((segment) =>
        segment.kind === "change" && !isCommentOnly(segment) && segment.labs.some((id) => done.includes(id))
          ? segment.labs
          : [],
      ),
    );
    return {
      lab,
      files: Object.fromEntries(segmentsOf.map(([file, segments]) => [file, applyLabs(segments, done)])),
      early: labIds.slice(index + 1).filter((id) => applied.includes(id)),
    };
  });
}

function findLab(checkpoint: Checkpoint, labId: string): Lab {
  const lab = checkpoint.labs.find((candidate) => candidate.id === labId);
  if (lab === undefined) {
    const ids = checkpoint.labs.map((candidate) => candidate.id).join("、");
    throw new UsageError(`检查点 ${checkpoint.id} 没有 Lab "${labId}"：可用的 Lab 是 ${ids}。`);
  }
  return lab;
}

/** For each teaching file of the checkpoint, the part of its starter → target change that is `labId`'s. */
export function labChanges(checkpoint: Checkpoint, labId: string): LabChange[] {
  const lab = findLab(checkpoint, labId);
  const labIds = checkpoint.labs.map((candidate) => candidate.id);
  return checkpoint.teachingFiles.flatMap((file) => {
    const starterFile = checkpoint.starters[file];
    if (starterFile === undefined) return [];
    const starter = readRepo(starterFile);
    const target = targetFiles(checkpoint).get(file) ?? "";
    const segments = labSegments(starter, target, labIds);
    const blocks = segments.filter(
      (segment): segment is Segment & { kind: "change" } => segment.kind === "change" && segment.labs.includes(lab.id),
    );
    if (blocks.length === 0) return [];
    const patch = createTwoFilesPatch(
      `a/${file}`,
      `b/${file}`,
      starter,
      applyLab(segments, lab.id),
      "starter",
      `Lab ${lab.id}`,
    );
    return [{ file, blocks: blocks.map(({ removed, added, labs }) => ({ removed, added, labs })), patch }];
  });
}

/** What `checkpoint 07 --lab 7.N` prints: a short header per file, then its patch. */
export function formatLabChanges(checkpoint: Checkpoint, labId: string): string {
  const lab = findLab(checkpoint, labId);
  const changes = labChanges(checkpoint, labId);
  const lines = [
    `Lab ${lab.id} ${lab.title}（实践 ${lab.id} · ${lab.practice}）：starter → target 中属于这段 Lab 的改动`,
    `卡住时再看；先试试 ${verifyCommand(checkpoint)}，它会给出第一条失败和提示。`,
  ];
  for (const change of changes) {
    const shared = [...new Set(change.blocks.flatMap((block) => block.labs))].filter((id) => id !== lab.id);
    const note = shared.length > 0 ? `；有的块也属于 Lab ${shared.join("、")}` : "";
    lines.push("", `${change.file}：${change.blocks.length} 处${note}`, change.patch.trimEnd());
  }
  return lines.join("\n");
}

function readRepo(relative: string): string {
  return readFileSync(path.join(repoRoot, relative), "utf8");
}
