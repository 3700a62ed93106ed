// `tiny-pi export FILE [--out FILE.html]`: one session file as a self-contained page (the tree,
// the active branch's transcript and its timeline). Reads the file like `tiny-pi tree`; writes
// only the page, next to the session unless --out says where.
import { UsageError } from "../../host/errors.js";
import { courseSessionCode } from "../../host/session-code.js";
import { readSessionFile } from "../../host/session-file.js";
import { renderRunPage } from "./page.js";
import type { RunView } from "./run-view.js";
import { sessionTimeline } from "./session-timeline.js";
import { pageOutProblem, writePage } from "./write-page.js";

/** The page's path when no --out is given: the session file's name with .html. */
export function defaultPageFile(file: string): string {
  return `${file.replace(/\.jsonl$/i, "")}.html`;
}

export function sessionView(file: string, shown: string): RunView {
  const { entries, header } = readSessionFile(file);
  const leafId = entries.at(-1)?.id ?? null;
  const path = leafId === null ? [] : courseSessionCode.pathTo(entries, leafId);
  return {
    title: `会话 ${shown}`,
    subtitle: `tiny-pi export · 会话 ${header.id} · 工作区 ${header.cwd}${header.parentSession === undefined ? "" : ` · 分自 ${header.parentSession}`}`,
    entries,
    leafId,
    timeline: sessionTimeline(path),
  };
}

/** Writes the page and returns the line tiny-pi prints. */
export function exportSession(file: string, out: string | undefined, shown: (file: string) => string): string {
  const target = out ?? defaultPageFile(file);
  const problem = pageOutProblem(target, file);
  if (problem !== undefined) throw new UsageError(problem);
  const html = renderRunPage(sessionView(file, shown(file)));
  try {
    writePage(target, html);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return `已写入 ${shown(target)}（${Math.ceil(Buffer.byteLength(html) / 1024)} kB）：用浏览器打开它，不需要网络。`;
}
