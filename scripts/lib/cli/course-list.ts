// What `npm run course` (and `npm run checkpoint` with no id) prints: the course in order, each
// checkpoint with its title and the state of the learner's newest practice directory for it.
import { courseCommand, practiceCommand, verifyCommand } from "../commands.js";
import type { Manifest } from "../course/manifest.js";
import { displayWidth, padDisplay } from "../terminal-style.js";
import { displayDir } from "../user-paths.js";
import { type CheckpointProgress, courseProgress } from "../verify/course-progress.js";

export async function courseList(manifest: Manifest, from: string, root?: string): Promise<string> {
  const progress = await courseProgress(manifest, root);
  const titles = progress.map(({ checkpoint }) => `${checkpoint.id}  ${checkpoint.title}（${checkpoint.mode}）`);
  const width = Math.max(...titles.map(displayWidth));
  const lines = ["课程 / Course（按学习顺序）："];
  for (const [index, entry] of progress.entries()) {
    lines.push(`  ${padDisplay(titles[index] ?? "", width)}  ${stateText(entry, from)}`);
  }
  lines.push("", nextStepLine(progress, from));
  lines.push(`查看某个检查点：npm run checkpoint -w @pi/course -- <编号>；这份总览：${courseCommand}`);
  return lines.join("\n");
}

function stateText(entry: CheckpointProgress, from: string): string {
  if (entry.state === "not-started") return "未开始";
  const dir = displayDir(entry.dir, from);
  if (entry.state === "build-failed") return `${dir}：构建失败`;
  if (entry.done === entry.total) return `${dir}：完成（${entry.total}/${entry.total} 个 Lab）`;
  return `${dir}：${entry.done}/${entry.total} 个 Lab`;
}

/**
 * What to do next: go on from the furthest checkpoint the learner has a practice directory for (a
 * learner who started at 07 is not sent back to 06), carrying its code forward with --from.
 */
export function nextStepLine(progress: CheckpointProgress[], from: string): string {
  let furthest = 0;
  for (const [index, entry] of progress.entries()) if (entry.state !== "not-started") furthest = index;
  const unfinished = (entry: CheckpointProgress) => entry.state !== "labs" || entry.done < entry.total;
  const after = progress.findIndex((entry, at) => at >= furthest && unfinished(entry));
  const at = after === -1 ? progress.findIndex(unfinished) : after;
  const next = progress[at];
  if (next === undefined) return "全部检查点都已完成。";
  if (next.state !== "not-started") return `下一步：${verifyCommand(next.checkpoint, displayDir(next.dir, from))}`;
  const previous = progress[at - 1];
  const carried = previous !== undefined && previous.state !== "not-started" ? previous.dir : undefined;
  const command = practiceCommand(next.checkpoint);
  return `下一步：${carried === undefined ? command : `${command} --from ${displayDir(carried, from)}`}`;
}
