// File-system faults met while writing a tree, told as one line that names the fix. The error
// keeps its `code`, so callers (and tests) can still tell the faults apart.
import { UsageError } from "../usage-error.js";

/** A target folder someone else created while this tree was being written (two runs at once). */
export class TargetTakenError extends UsageError {
  override name = "TargetTakenError";
}

function fault(message: string, code: string): UsageError {
  return Object.assign(new UsageError(message), { code });
}

/**
 * The one-line UsageError for a file-system fault met while writing the tree for `target`, or
 * `error` itself when it is not one a learner can fix (a bug must keep its stack trace).
 */
export function explainFsFault(error: unknown, target: string): unknown {
  if (error instanceof UsageError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
  switch (code) {
    case "ENOSPC":
    case "EDQUOT":
      return fault(`磁盘空间不足（${code}），没有写出 ${target}：请腾出空间后重试，或换一个磁盘上的目录。`, code);
    case "ENAMETOOLONG":
      return fault(`目录名或路径太长（ENAMETOOLONG），超过了系统的限制：请换一个短一些的目录名。`, code);
    case "EBUSY":
      return fault(`${target} 正被占用（EBUSY，例如它是一个挂载点）：请换一个新目录名。`, code);
    case "EPERM":
    case "EACCES":
      return fault(`没有权限写入或替换 ${target}（${code}）：请换一个有写权限的新目录。`, code);
    case "EROFS":
      return fault(`${target} 所在的文件系统是只读的（EROFS）：请换一个可写的目录。`, code);
    default:
      return error;
  }
}
