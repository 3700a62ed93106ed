// The workspace the tools work in must be an existing directory; anything else is a usage error.
import { statSync } from "node:fs";
import { UsageError } from "../host/errors.js";

export function requireWorkspace(dir: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`工作区 ${dir} 不存在：请用 --workspace 指向一个已有的目录。`);
  }
  if (!isDirectory) throw new UsageError(`工作区 ${dir} 不是目录：请用 --workspace 指向一个目录。`);
}
