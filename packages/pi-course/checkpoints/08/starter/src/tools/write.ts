// Checkpoint 08 · 学习脚手架：createWriteTool() 的参数 schema 与 writeFileAtomic() 的签名已经写好；
// Lab 8.3 的两段算法先抛出“尚未实现”的临时错误。edit（Lab 8.4）也用 writeFileAtomic()。
// 按 ① → ⑥ 完成 `// Lab 8.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="原子写入" packages/pi-coding-agent/dist/test/08-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
// biome-ignore-all lint/style/useImportType: the labs use these imports as values once written.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type Tool, text } from "@pi/core";
import { withFileMutationQueue } from "./file-mutation-queue.js";
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
          // Lab 8.3 ①：bytes 是 content 的 UTF-8 字节数（Buffer.byteLength），不是 content.length（UTF-16 单元）。
          // Lab 8.3 ②：mkdir(path.dirname(file), { recursive: true }) 创建父目录，再 writeFileAtomic(file, content, requested)。
          //   这个回调在同一真实路径的队列里运行：同一批里对同一文件的两次 write 按调用顺序落盘。
          // Lab 8.3 ③：返回 `Wrote ${bytes} bytes to ${requested}.`，details 为 { path: requested, bytes }。
          throw new Error("Lab 8.3 原子写入文件 尚未实现");
        },
      );
    },
  };
}

/**
 * Writes `content` to a temporary file beside `file`, then renames it over `file`: a reader sees
 * the old content or the new one, never half of it. The file's permission bits are kept.
 */
export async function writeFileAtomic(file: string, content: string, requested: string): Promise<void> {
  // Lab 8.3 ④：临时文件放在同一目录（rename 只有在同一文件系统里才是原子的），名字用
  //   `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`。
  // Lab 8.3 ⑤：stat(file) 看目标是否已存在；是目录时抛出 `Path "${requested}" is a directory; write to a file path.`
  // Lab 8.3 ⑥：open(temp, "wx") 新建临时文件，把 Buffer.from(content, "utf8") 用 handle.write() 循环写完再 close()
  //   （整块写比 writeFile() 按 512 KB 分块快）；目标已存在时 chmod(temp, 原来的 mode & 0o7777)；
  //   最后 rename(temp, file)。任何一步失败：rm(temp, { force: true }) 再把错误抛出，不留临时文件。
  throw new Error("Lab 8.3 原子写入文件 尚未实现");
}
