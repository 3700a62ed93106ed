// What the person is told about the session: a write that failed, once, in one line; at the end
// where the session is and how to continue it (--fork when the file ends in a cut-off line,
// which --resume refuses).
import { endsInsideALine } from "../host/session-file.js";
import type { HostSession } from "../host/session-store.js";
import type { Runtime } from "../runtime/index.js";
import { shownPath } from "./learner-tree.js";

export interface SessionReport {
  /** Waits for the Runtime's writes; a failure is told once. */
  saved(runtime: Runtime): Promise<void>;
  /** Whether `error` (a rejected prompt) is the Runtime refusing after a failed write: then it has been told. */
  toldFailure(runtime: Runtime, error: unknown): boolean;
  /** Disposes the Runtime and tells where the session is. */
  end(runtime: Runtime): Promise<void>;
}

export function sessionReport(
  session: HostSession,
  from: string,
  notes: { write(text: string): unknown },
): SessionReport {
  let told = false;
  const tell = (runtime: Runtime, error: unknown) => {
    if (told || runtime.failure() === undefined) return;
    told = true;
    // The store's own line says which file and what failed; the Runtime's adds what it refuses now.
    const cause = (error as { cause?: unknown })?.cause;
    const line = cause instanceof Error ? cause.message : (runtime.failure() as string);
    notes.write(`会话没有保存完整：${line.split("\n")[0]}\n`);
  };
  return {
    async saved(runtime) {
      await runtime.flush().catch((error: unknown) => tell(runtime, error));
    },
    toldFailure(runtime, error) {
      if (runtime.failure() === undefined) return false;
      tell(runtime, error);
      return true;
    },
    async end(runtime) {
      await runtime.dispose().catch((error: unknown) => tell(runtime, error));
      const file = session.file();
      if (file === undefined) return;
      const shown = shownPath(file, from);
      const next =
        told && endsInsideALine(file)
          ? `最后一行没有写完：用 --fork ${shown} 从已提交的条目开一个新会话继续`
          : "用 --resume 继续";
      notes.write(`会话：${shown}（${next}）\n`);
    },
  };
}
