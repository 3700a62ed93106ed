// `tiny-pi export FILE [--out FILE.html]`: one session file as a self-contained page (the tree,
// the active branch's transcript and its timeline). Reads the file like `tiny-pi tree`; writes
// only the page, next to the session unless --out says where.
import { UsageError } from "../../host/errors.js";
import { piOriginal, piSummary } from "../../host/pi-entries.js";
import { courseSessionCode } from "../../host/session-code.js";
import { readSessionFile } from "../../host/session-file.js";
import type { SessionEntry } from "../../session/entries.js";
import { renderRunPage } from "./page.js";
import type { RunView } from "./run-view.js";
import { sessionTimeline } from "./session-timeline.js";
import { pageOutProblem, writePage } from "./write-page.js";

/** The page's path when no --out is given: the session file's name with .html. */
export function defaultPageFile(file: string): string {
  return `${file.replace(/\.jsonl$/i, "")}.html`;
}

/** A stand-in as the page shows it: Pi's kind and first words instead of the original (whose images would double the page). */
function pageEntry(entry: SessionEntry): SessionEntry {
  const pi = piOriginal(entry);
  if (pi === undefined) return entry;
  const { pi: _original, ...rest } = entry as SessionEntry & { pi: unknown };
  const { kind, words } = piSummary(pi);
  return { ...rest, piKind: kind, piWords: words } as unknown as SessionEntry;
}

export function sessionView(file: string, shown: string): RunView {
  const { entries, header } = readSessionFile(file);
  const leafId = entries.at(-1)?.id ?? null;
  const path = leafId === null ? [] : courseSessionCode.pathTo(entries, leafId);
  return {
    title: `会话 ${shown}`,
    subtitle: `tiny-pi export · 会话 ${header.id} · 工作区 ${header.cwd}${header.parentSession === undefined ? "" : ` · 分自 ${header.parentSession}`}`,
    entries: entries.map(pageEntry),
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
