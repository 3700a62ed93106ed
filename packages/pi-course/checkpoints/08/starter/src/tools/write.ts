// Checkpoint 08 · 学习脚手架：createWriteTool() 的参数 schema、writeFileAtomic() 的签名、checkReplaceable()、
// keepOwnerAndMode() 与 withParentDir()（在检查过的目录里做 I/O）已经写好；Lab 8.3 的两段算法先抛出“尚未实现”的临时错误。
// edit（Lab 8.4）也用 writeFileAtomic()。按 ① → ⑥ 完成 `// Lab 8.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="原子写入" packages/pi-coding-agent/dist/test/08-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
// biome-ignore-all lint/style/useImportType: the labs use these imports as values once written.
import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { constants, type FileHandle, lstat, open, rename, rm } from "node:fs/promises";
import { type Tool, text } from "@pi/core";
import { withFileMutationQueue } from "./file-mutation-queue.js";
import {
  changedWhileInUse,
  O_NOFOLLOW,
  O_NONBLOCK,
  refuseIrregular,
  type WorkspaceDir,
  withParentDir,
} from "./workspace-dir.js";
import { resolveWorkspacePath } from "./workspace-path.js";

interface WriteArgs {
  path: string;
  content: string;
}

export function createWriteTool(root: string): Tool {
  return {
    name: "write",
    description: "Create or overwrite a file in the workspace with the given content; parent directories are created.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path, relative to the workspace." },
        content: { type: "string", description: "The whole new content of the file." },
      },
      required: ["path", "content"],
      additionalProperties: false,
    },
    async execute(args) {
      const { path: requested, content } = args as unknown as WriteArgs;
      // Resolved inside the queue (an outside path is refused there, before any I/O); see file-mutation-queue.ts.
      return withFileMutationQueue(
        () => resolveWorkspacePath(root, requested),
        async (file) => {
          // Lab 8.3 ①：data = Buffer.from(content, "utf8")；报告的字节数是 data.length（UTF-8），不是 content.length（UTF-16 单元）。
          // Lab 8.3 ②：await withParentDir(root, file, requested, true, (dir, name) => writeFileAtomic(dir, name, data, requested))：
          //   在检查过的那个目录里写（create: true 一层一层创建缺少的父目录）。这个回调在同一真实路径的队列里运行：
          //   同一批里对同一文件的两次 write 按调用顺序落盘。
          // Lab 8.3 ③：返回 `Wrote ${bytes} bytes to ${requested}.`，details 为 { path: requested, bytes }。
          throw new Error("Lab 8.3 原子写入文件 尚未实现");
        },
      );
    },
  };
}

const CREATE_TEMP = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;

/**
 * Writes `data` to a new temporary file beside `name` in `dir`, then renames it over `name`: a
 * reader sees the old content or the new one, never half of it. An existing file must be one
 * the user could write; its permission bits, and its owner and group where the process may set
 * them, are kept.
 */
export async function writeFileAtomic(dir: WorkspaceDir, name: string, data: Buffer, requested: string): Promise<void> {
  // Lab 8.3 ④：existing = await lstat(dir.entry(name))，ENOENT 时为 undefined（其他错误原样抛出）。已存在时
  //   await checkReplaceable(dir, name, existing, requested)：目录、FIFO、用户自己不能写的只读文件都被拒绝
  //   （rename 只需要目录的写权限，不检查就会悄悄替换 0444 的文件）。
  // Lab 8.3 ⑤：临时文件名 tempNameFor(name)（已写好：`.${name}.<12 位十六进制>.tmp`，名字很长时截短），放在同一目录（rename 只有在同一文件系统里才是原子的），
  //   用 open(dir.entry(temp), CREATE_TEMP, existing === undefined ? 0o666 : 0o600) 新建：排他、不跟随链接。
  // Lab 8.3 ⑥：先 await dir.verify(handle, temp)，再用 handle.write() 循环写完 data；已存在时 await keepOwnerAndMode(handle, existing)
  //   （保留权限位、能保留时保留属主与属组）；close() 之后 rename(dir.entry(temp), dir.entry(name))。
  //   临时文件建好之后任何一步失败：rm(dir.entry(temp), { force: true }) 再把错误抛出，不留临时文件。
  throw new Error("Lab 8.3 原子写入文件 尚未实现");
}

/**
 * `.<name>.<12 hex digits>.tmp`, beside `name`. A name near the 255 bytes a file name may hold is
 * cut (by whole characters) so that the temp name still fits: otherwise a legal long name fails.
 */
export function tempNameFor(name: string): string {
  const suffix = `.${randomBytes(6).toString("hex")}.tmp`;
  const characters = Array.from(name);
  while (Buffer.byteLength(`.${characters.join("")}${suffix}`) > 255) characters.pop();
  return `.${characters.join("")}${suffix}`;
}

/** An existing target must be a regular file the user could write (rename needs only the folder's permission). */
async function checkReplaceable(dir: WorkspaceDir, name: string, existing: Stats, requested: string): Promise<void> {
  if (existing.isSymbolicLink()) throw changedWhileInUse(requested);
  if (existing.isDirectory()) throw new Error(`Path "${requested}" is a directory; write to a file path.`);
  refuseIrregular(existing, requested);
  let probe: FileHandle;
  try {
    probe = await open(dir.entry(name), constants.O_WRONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw changedWhileInUse(requested);
    if (code === "EACCES" || code === "EPERM") {
      throw new Error(
        `File "${requested}" is read-only for this user; make it writable first (chmod u+w) if it should be replaced.`,
      );
    }
    throw error;
  }
  await probe.close();
}

async function keepOwnerAndMode(handle: FileHandle, existing: Stats): Promise<void> {
  // Only root may give a file away; a user may still set a group they belong to. Either may fail.
  await handle.chown(existing.uid, existing.gid).catch(() => undefined);
  // After chown, which clears set-user-ID and set-group-ID bits.
  await handle.chmod(existing.mode & 0o7777);
}
