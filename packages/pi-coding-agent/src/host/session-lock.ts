// One writer per session file: `<file>.lock` holds the writing tiny-pi's process id while it runs,
// so a second tiny-pi refuses instead of interleaving its entries. A lock whose process is gone
// (a run killed with SIGKILL) is taken over.
import { lstatSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { isAlive } from "../process/process-tree.js";
import { UsageError } from "./errors.js";

const held = new Set<string>();

/** Takes the lock of `file` for this process until it exits; another live holder is a UsageError naming it. */
export function lockSession(file: string): void {
  const lock = `${file}.lock`;
  if (held.has(lock)) return;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: "wx" });
      if (held.size === 0) process.once("exit", releaseAll);
      held.add(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return; // unlockable folder: the write itself will say so
    }
    const holder = Number(lockText(lock, file).trim());
    if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
      throw new UsageError(
        `会话文件 ${file} 正被另一个 tiny-pi（进程 ${holder}）写入：等它结束，或者用 --fork ${file} 分出一个新文件。`,
      );
    }
    rmSync(lock, { force: true });
  }
}

/** What the lock holds; "" when it has just gone. A lock that is not a file (a folder, a FIFO) is refused in one line. */
function lockText(lock: string, file: string): string {
  try {
    if (!lstatSync(lock).isFile()) throw Object.assign(new Error("not a file"), { code: "ENOTFILE" });
    return readFileSync(lock, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "";
    throw new UsageError(
      `会话文件 ${file} 的锁 ${lock} 不是 tiny-pi 写的锁文件（${code === "ENOTFILE" ? "它不是普通文件" : code}）：确认没有别的 tiny-pi 在写这个会话后删掉它，再运行一次。`,
    );
  }
}

function releaseAll(): void {
  for (const lock of held) rmSync(lock, { force: true });
  held.clear();
}
