// Checkpoint 08 · 学习脚手架：resolveWorkspacePath() 的签名和 isInside()、workspaceRealPath()、isLink()、outside()、
// nameLengthsAllowed()、unusable() 几个小工具已经写好；Lab 8.1 的解析算法先抛出“尚未实现”的临时错误。
// 按 ① → ④ 完成 `// Lab 8.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="工作区边界" packages/pi-coding-agent/dist/test/08-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters, helpers and imports unused until written.
// biome-ignore-all lint/style/useImportType: the labs use these imports as values once written.
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";

/**
 * Resolves `requested` against `root` and returns the real path the tool may use.
 * Refuses `..` escapes, absolute paths outside `root`, and symlinks anywhere on the path that
 * lead outside. Called on every use, so a link planted after an earlier call is still caught.
 * A NUL byte, a name the file system finds too long and a symlink loop are one-line errors too.
 * A root reached through a symlink is known by both names: the one given and its real path
 * (the one bash prints in `$PWD`).
 */
export async function resolveWorkspacePath(root: string, requested: string): Promise<string> {
  // Lab 8.1 ①：去掉开头的一个 "@"（模型常照抄 "@file" 提及）；去掉后为空（或只有空白）时抛出一行错误：
  //   `Path is empty; give a file path inside the workspace ${root}.`
  //   含 NUL 字节（"\0"）的路径在任何 fs 调用之前拒绝（Node 会抛出 ERR_INVALID_ARG_VALUE，文件名里也不可能有 NUL），
  //   消息里把 NUL 写成 \0：`Path "${requested.replace(/\0/g, "\\0")}" contains a NUL byte (\\0), which no file name can hold; give the path without it.`
  //   以 "~" 开头的路径一律拒绝（工具不展开 ~；字面的 ~ 目录会招来之后的 `rm -rf ~`）：
  //   `Path "${requested}" starts with ~, which the tools do not expand; give a path inside the workspace ${root} (./${relative} for a name that really starts with ~).`
  // Lab 8.1 ②：lexical = path.resolve(root, relative)；realRoot = await workspaceRealPath(root)。
  //   工作区认两个名字：给出的 path.resolve(root) 和它的真实路径 realRoot（经过 symlink 给出的工作区，bash 的 $PWD
  //   打印的是后者）。lexical 两个都不在里面时 throw outside(requested, root)：`..` 与外部绝对路径在碰到路径本身之前被拒绝。
  // Lab 8.1 ③：real = await realPathOf(lexical, requested, root)；isInside(realRoot, real) 不成立时 throw outside(…)。
  //   真实路径只能和工作区的真实路径比较：和 path.resolve(root) 比，经过 symlink 给出的工作区里每个路径都会被拒绝。
  // Lab 8.1 ④：返回 real。工具只拿这个真实路径做 I/O；每次调用都重新解析，之后才换成外链的路径也会被拒绝。
  throw new Error("Lab 8.1 守住工作区边界 尚未实现");
}

/** The workspace root's real path; a missing root is a one-line error. */
export function workspaceRealPath(root: string): Promise<string> {
  return realpath(root).catch(() => {
    throw new Error(`The workspace ${root} does not exist; create it or choose another workspace.`);
  });
}

/** True when `candidate` is `dir` itself or lies below it. */
export function isInside(dir: string, candidate: string): boolean {
  const relative = path.relative(dir, candidate);
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

async function realPathOf(target: string, requested: string, root: string): Promise<string> {
  // Lab 8.1 ③ 的细节：从 target 开始向上找到最深的、已经存在的祖先：
  //   1. 对它调用 realpath()（跟随路径上每一个 symlink），await nameLengthsAllowed(真实路径, 还不存在的那几段)
  //      （realpath() 停在第一个不存在的名字上，后面的名字是否过长要另外问文件系统），再用 path.join()
  //      接上还不存在的那几段（不存在的部分不可能是链接），返回这个结果。
  //   2. 错误码是 ELOOP（symlink 环）或 ENAMETOOLONG（名字超过文件系统的上限）时 throw unusable(code, requested, root, target)：
  //      一行说明，而不是 Node 的原始错误。
  //   3. realpath() 报 ENOENT 时：如果这一段本身是个链接（isLink()），它指向不存在的目标，去向无法检查：
  //      抛出一行错误：
  //      `Path "${requested}" goes through a symlink whose target does not exist; remove the link or point it inside the workspace ${root}.`
  //   4. 否则把 path.basename() 放到“还不存在的部分”最前面，换成 path.dirname() 继续；到了文件系统根
  //      还没有找到已存在的祖先时抛出 `Path "${requested}" has no existing ancestor; check the workspace ${root}.`。其他错误码原样抛出。
  throw new Error("Lab 8.1 守住工作区边界 尚未实现");
}

/**
 * Throws the file system's own ENAMETOOLONG when a name still to be created in `dir` is longer
 * than it allows; realpath() stops at the first missing name and never judges the later ones.
 */
async function nameLengthsAllowed(dir: string, names: string[]): Promise<void> {
  for (const name of names) {
    await lstat(path.join(dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENAMETOOLONG") throw error;
    });
  }
}

async function isLink(file: string): Promise<boolean> {
  try {
    return (await lstat(file)).isSymbolicLink();
  } catch {
    return false;
  }
}

function outside(requested: string, root: string): Error {
  return new Error(`Path "${requested}" is outside the workspace ${root}; use a path inside it.`);
}

/** The one line for a path realpath() cannot follow: a symlink loop, or a name the file system refuses as too long. */
function unusable(code: "ELOOP" | "ENAMETOOLONG", requested: string, root: string, target: string): Error {
  if (code === "ELOOP") {
    return new Error(
      `Path "${requested}" goes through a symlink loop (links that lead back to themselves); remove the loop or point the link at a file inside the workspace ${root}.`,
    );
  }
  const longest = Math.max(...target.split(path.sep).map((name) => Buffer.byteLength(name)));
  return new Error(
    `Path "${requested}" is too long for the file system (its longest name is ${longest} bytes; most file systems allow 255); use shorter names.`,
  );
}
