// Writing a run page, for tiny-pi's `export` and the demo's `--html` alike: only to a .html file
// whose folder exists, never over the session it shows, and atomically (a temp file beside it,
// then a rename), so the page is either complete or absent, and nothing else is ever replaced.
import { renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Why `out` cannot take a page (one Chinese line naming the fix), or undefined. */
export function pageOutProblem(out: string, source?: string): string | undefined {
  if (!/\.html?$/i.test(out)) return `输出文件 ${out} 不是 .html 文件：请写成 --out 名字.html（别的文件不会被覆盖）。`;
  if (source !== undefined && path.resolve(out) === path.resolve(source)) {
    return `输出文件 ${out} 就是要导出的会话：请换一个 .html 文件名。`;
  }
  const dir = path.dirname(path.resolve(out));
  let folder: ReturnType<typeof statSync> | undefined;
  try {
    folder = statSync(dir);
  } catch {
    folder = undefined;
  }
  if (folder === undefined || !folder.isDirectory())
    return `输出文件夹 ${dir} 不存在：请先建好它，或换一个 --out 路径。`;
  return undefined;
}

/** Writes `html` to `out` (already checked by pageOutProblem); throws one Chinese line on failure. */
export function writePage(out: string, html: string): void {
  const temp = path.join(path.dirname(out), `.${path.basename(out)}.${process.pid}.tmp`);
  // A signal during the synchronous write and rename waits for them (a listener keeps Node from
  // dying mid-write), then ends the process as it would have: the page is complete, no temp is left.
  const caught: NodeJS.Signals[] = [];
  const onSignal = (signal: NodeJS.Signals) => caught.push(signal);
  for (const signal of SIGNALS) process.on(signal, onSignal);
  try {
    writeFileSync(temp, html, { flag: "wx" });
    renameSync(temp, out);
  } catch (error) {
    rmSync(temp, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? "未知错误";
    throw new Error(`无法写入 ${out}（${code}）：请换一个可写的 .html 路径。`);
  } finally {
    setImmediate(() => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
      const signal = caught[0];
      if (signal !== undefined) process.kill(process.pid, signal);
    });
  }
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
