// Why a compaction did not happen, as the one line the turn ends with. Nothing was appended.
export class CompactionError extends Error {
  constructor(
    message: string,
    /** The summarisation request was aborted (Ctrl-C): the turn ends `aborted`, not `error`. */
    readonly aborted = false,
  ) {
    super(message);
    this.name = "CompactionError";
  }
}

/** Every compaction failure line starts so: run-outcome.ts shows it as it is. */
export const COMPACTION_FAILED = "上下文压缩失败";
export const CONTEXT_TOO_BIG = "上下文放不下";
