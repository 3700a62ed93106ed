// `checkpoint --new NN`: every piece of a new checkpoint in the repository's conventions (the
// manifest entry, the teaching files it adds, a starter per teaching file, the focused test, the
// guide, the README row and block, and `before/` for each existing file it changes), written all
// or nothing. Everything is checked before the first write; a failure or a signal during the
// writes puts every file back as it was.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { type CheckpointEntry, derive } from "../../../packages/pi-course-kit/src/index.js";
import { cleanupOnSignal } from "../cleanup-on-signal.js";
import { PROSE_PLACEHOLDER } from "../course/check/placeholder-check.js";
import { type Checkpoint, loadManifest, manifestPath, reloadManifest, repoRoot } from "../course/manifest.js";
import { beforeFolder, courseFiles } from "../course/snapshots.js";
import { UsageError } from "../usage-error.js";
import { focusedTestSkeleton, guideSkeleton, readmeRow, starterSkeleton, teachingSkeleton } from "./scaffold-texts.js";

export interface NewCheckpointRequest {
  id: string;
  title: string;
  chapter: string;
  /** The workspace package the chapter builds, e.g. `@pi/coding-agent`. */
  package: string;
  /** Repository paths of the files the learner rebuilds: new ones are created, existing ones get a `before/`. */
  teaching: string[];
  /** Existing files the chapter changes besides its teaching files (exports, package.json). */
  changes: string[];
  /** How many labs to lay out. */
  labs: number;
  /** The focused test's name after `<id>-`, e.g. `session-tree`. */
  testName: string;
}

/** Validates `request` against the repository, writes the checkpoint, and returns what to do next. */
export async function newCheckpoint(request: NewCheckpointRequest): Promise<string> {
  const manifest = loadManifest();
  const course = new Set(courseFiles(manifest));
  refuse(request, manifest.checkpoints, course);
  const previous = manifest.checkpoints.at(-1);
  const entry = entryFor(request, previous);
  const checkpoint = derive(entry);

  const existing = [...request.teaching, ...request.changes].filter((file) => existsSync(repoPath(file)));
  const writes = new Map<string, string>();
  for (const file of existing) writes.set(`${beforeFolder(checkpoint)}/${file}`, readFileSync(repoPath(file), "utf8"));
  for (const file of request.teaching) {
    const starter = entry.starters[file] ?? "";
    if (existing.includes(file))
      writes.set(starter, `// TODO(scaffold): stub this chapter's labs here.\n${readFileSync(repoPath(file), "utf8")}`);
    else {
      writes.set(file, teachingSkeleton(file));
      writes.set(starter, starterSkeleton(checkpoint));
    }
  }
  writes.set(checkpoint.focusedTest, focusedTestSkeleton(checkpoint));
  writes.set(checkpoint.guide ?? "", guideSkeleton(checkpoint, previous));
  const json = JSON.parse(readFileSync(manifestPath, "utf8")) as { checkpoints: CheckpointEntry[] };
  json.checkpoints.push(entry);
  writes.set(path.relative(repoRoot, manifestPath).split(path.sep).join("/"), `${JSON.stringify(json, null, 2)}\n`);
  writes.set("README.md", withReadmeRow(readFileSync(repoPath("README.md"), "utf8"), checkpoint));

  await writeAllOrNothing(writes);
  formatWritten([...writes.keys()]);
  reloadManifest();
  const created = [...writes.keys()].filter((file) => file !== "README.md" && !file.endsWith("manifest.json"));
  return [
    `已创建检查点 ${checkpoint.id}：清单条目与 ${created.length} 个文件，README 的课程表加上了它的一行（命令块在指南里）。`,
    ...created.map((file) => `  ${file}`),
    "",
    "下一步：",
    `  1. 写 target：${request.teaching.join("、")}${request.changes.length > 0 ? `，以及改动 ${request.changes.join("、")}` : ""}；要改动别的已有文件时先运行 npm run checkpoint -w @pi/course -- ${checkpoint.id} --record-before <路径>`,
    `  2. 写聚焦测试 ${checkpoint.focusedTest}（每段 Lab 的测试名以它的模式开头，断言带中文规则说明），与每个 starter 里的 Lab 桩`,
    `  3. 填好清单条目、指南 ${checkpoint.guide}（含它的命令块）与 README 那一行里的每处 ${PROSE_PLACEHOLDER}，然后 npm run format`,
    "  4. npm run checkpoint -w @pi/course -- --check      # 列出还没填完的每一处（约 1 秒）",
    `  5. npm run checkpoint -w @pi/course -- ${checkpoint.id} --prove   # 这一章的全部完整性检查（1 分钟以内）`,
  ].join("\n");
}

function entryFor(request: NewCheckpointRequest, previous: Checkpoint | undefined): CheckpointEntry {
  const folder = packageFolder(request.package);
  const own = `packages/pi-course/checkpoints/${request.id}`;
  const number = Number(request.id);
  const labs = Array.from({ length: request.labs }, (_, index) => ({
    id: `${number}.${index + 1}`,
    title: `${PROSE_PLACEHOLDER}第 ${index + 1} 段`,
    practice: `${PROSE_PLACEHOLDER}第 ${index + 1} 段的实践`,
    pattern: `${PROSE_PLACEHOLDER}模式 ${index + 1}`,
    expected: 1,
    hint: `${PROSE_PLACEHOLDER}卡住时该看什么。见指南“实践 ${number}.${index + 1} · ${PROSE_PLACEHOLDER}第 ${index + 1} 段的实践”。`,
  }));
  const focusedTest = `${folder}/test/${request.id}-${request.testName}.test.ts`;
  const newFiles = request.teaching.filter((file) => !existsSync(repoPath(file)));
  return {
    id: request.id,
    title: request.title,
    chapter: request.chapter,
    guide: `${own}/README.md`,
    package: request.package,
    parent: {
      description: `第 ${previous?.id ?? "??"} 章完成后的起点（即 Checkpoint ${previous?.id ?? "??"} 的 target）：${PROSE_PLACEHOLDER}还缺什么`,
    },
    target: {
      description: `${request.labs} 项聚焦测试通过的终点：parent 加上 ${PROSE_PLACEHOLDER}`,
      adds: [...newFiles, focusedTest],
    },
    teachingFiles: request.teaching,
    // The starter keeps the teaching file's path inside its package (starter/src/…), so two files never collide.
    starters: Object.fromEntries(
      request.teaching.map((file) => [file, `${own}/starter/${file.split("/").slice(2).join("/")}`]),
    ),
    focusedTest,
    labs,
    diagnostic: {
      title: `诊断 · ${PROSE_PLACEHOLDER}`,
      description: `${PROSE_PLACEHOLDER}把哪一处改错，哪几项测试变红`,
      file: request.teaching[0] ?? "",
      find: "TODO(scaffold): a line of the target to change",
      replace: PROSE_PLACEHOLDER,
      pattern: labs[0]?.pattern ?? "",
      failing: 1,
    },
  };
}

/** Every reason the request cannot be written, as one UsageError: nothing has been written yet. */
function refuse(request: NewCheckpointRequest, checkpoints: Checkpoint[], course: Set<string>): void {
  const problems: string[] = [];
  const last = checkpoints.at(-1);
  if (!/^\d{2}$/.test(request.id)) problems.push(`编号 "${request.id}" 要是两位数字，例如 10`);
  else if (checkpoints.some((checkpoint) => checkpoint.id === request.id))
    problems.push(`检查点 ${request.id} 已经存在`);
  else if (last !== undefined && request.id <= last.id) problems.push(`新检查点要排在最后：编号要大于 ${last.id}`);
  if (existsSync(repoPath(`packages/pi-course/checkpoints/${request.id}`))) {
    problems.push(`packages/pi-course/checkpoints/${request.id}/ 已经存在：换一个编号，或先移走它`);
  }
  if (!/^[a-z0-9][a-z0-9-]*$/.test(request.testName))
    problems.push(`--test-name "${request.testName}" 只用小写字母、数字和 -`);
  let folder: string | undefined;
  try {
    folder = packageFolder(request.package);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (request.teaching.length === 0) problems.push("至少要有一个教学文件：--teaching <路径>[,<路径>…]");
  if (!Number.isInteger(request.labs) || request.labs < 1 || request.labs > 9)
    problems.push("--labs 是 1 到 9 之间的整数");
  for (const file of [...request.teaching, ...request.changes]) {
    if (!/^packages\/[^/]+\/.+\.[a-z]+$/.test(file) || file.includes("..") || file.includes("\\")) {
      problems.push(`${file} 要是仓库里 packages/ 下的路径，用 / 分隔`);
    } else if (existsSync(repoPath(file)) && !course.has(file)) {
      problems.push(`${file} 已经存在，但不属于任何检查点的树：新文件请换个路径，已有文件先让它属于某一章`);
    } else if (!existsSync(repoPath(file)) && request.changes.includes(file)) {
      problems.push(`--changes 里的 ${file} 不存在：新文件写在 --teaching 里`);
    }
  }
  if (folder !== undefined) {
    const focused = `${folder}/test/${request.id}-${request.testName}.test.ts`;
    if (existsSync(repoPath(focused))) problems.push(`聚焦测试 ${focused} 已经存在`);
  }
  if (problems.length > 0)
    throw new UsageError(`没有创建检查点 ${request.id}：\n${problems.map((p) => `  ${p}`).join("\n")}`);
}

/** The repository folder of the workspace package `name`, e.g. `packages/pi-coding-agent`. */
function packageFolder(name: string): string {
  const root = JSON.parse(readFileSync(repoPath("package.json"), "utf8")) as { workspaces: string[] };
  for (const folder of root.workspaces) {
    const json = JSON.parse(readFileSync(repoPath(`${folder}/package.json`), "utf8")) as { name?: string };
    if (json.name === name) return folder;
  }
  throw new UsageError(`没有名为 ${name} 的 workspace 包（可用：${root.workspaces.join("、")}）`);
}

/** The README with the checkpoint's row after the course table's last row (its commands are in its guide). */
function withReadmeRow(readme: string, checkpoint: Checkpoint): string {
  const rows = [...readme.matchAll(/^\| \d{2} .*\|$/gm)];
  const lastRow = rows.at(-1);
  if (lastRow?.index === undefined) return readme;
  const end = lastRow.index + lastRow[0].length;
  return `${readme.slice(0, end)}\n${readmeRow(checkpoint)}${readme.slice(end)}`;
}

/** Writes every file; if one fails, or a signal arrives, puts back what was there before. */
async function writeAllOrNothing(writes: Map<string, string>): Promise<void> {
  const originals = new Map<string, string | undefined>();
  const madeDirs: string[] = [];
  const restore = () => {
    for (const [file, content] of originals) {
      try {
        if (content === undefined) rmSync(repoPath(file), { force: true });
        else writeFileSync(repoPath(file), content);
      } catch {
        // Put back the rest.
      }
    }
    for (const dir of madeDirs.reverse()) rmSync(dir, { recursive: true, force: true });
  };
  const release = cleanupOnSignal(restore);
  try {
    for (const [file, content] of writes) {
      const where = repoPath(file);
      originals.set(file, existsSync(where) ? readFileSync(where, "utf8") : undefined);
      const made = await fs.mkdir(path.dirname(where), { recursive: true });
      if (made !== undefined) madeDirs.push(made);
      await fs.writeFile(where, content);
    }
  } catch (error) {
    restore();
    throw new UsageError(`写入失败，已恢复原样：${(error as Error).message}`);
  } finally {
    release();
  }
}

/** Biome's formatting of what was written (the manifest, README tables), so `npm run check` stays green; best effort. */
function formatWritten(files: string[]): void {
  const biome = path.join(repoRoot, "node_modules", ".bin", process.platform === "win32" ? "biome.cmd" : "biome");
  if (!existsSync(biome)) return;
  spawnSync(biome, ["check", "--write", "--no-errors-on-unmatched", ...files], {
    cwd: repoRoot,
    stdio: "ignore",
    shell: process.platform === "win32",
  });
}

function repoPath(relative: string): string {
  return path.join(repoRoot, ...relative.split("/"));
}
