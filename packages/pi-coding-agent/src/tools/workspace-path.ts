// Lab 8.1 · 工作区边界：every path a tool touches is resolved here, at use, inside the workspace root.
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
  // Pi strips a leading "@" (models copy it from "@file" mentions).
  const relative = requested.startsWith("@") ? requested.slice(1) : requested;
  if (relative.trim() === "") throw new Error(`Path is empty; give a file path inside the workspace ${root}.`);
  // Before any fs call: Node would throw ERR_INVALID_ARG_VALUE, and no file name can hold a NUL.
  if (relative.includes("\0")) {
    throw new Error(
      `Path "${requested.replace(/\0/g, "\\0")}" contains a NUL byte (\\0), which no file name can hold; give the path without it.`,
    );
  }
  // "~" is not expanded: a literal "~" folder would invite a later `rm -rf ~`.
  if (relative.startsWith("~")) {
    throw new Error(
      `Path "${requested}" starts with ~, which the tools do not expand; give a path inside the workspace ${root} (./${relative} for a name that really starts with ~).`,
    );
  }

  const lexical = path.resolve(root, relative);
  const realRoot = await workspaceRealPath(root);
  // The given root first: `..` and outside absolute paths are refused before the path itself is touched.
  if (!isInside(path.resolve(root), lexical) && !isInside(realRoot, lexical)) throw outside(requested, root);

  // Follow every symlink that exists on the path: the deepest existing ancestor's real path,
  // plus the components that do not exist yet (they cannot be links).
  const real = await realPathOf(lexical, requested, root);
  if (!isInside(realRoot, real)) throw outside(requested, root);
  return real;
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
  const missing: string[] = [];
  let existing = target;
  for (;;) {
    try {
      const real = await realpath(existing);
      await nameLengthsAllowed(real, missing);
      return path.join(real, ...missing);
    } catch (error) {
      // A loop, or a name longer than the file system allows: one line, not Node's raw error.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ELOOP" || code === "ENAMETOOLONG") throw unusable(code, requested, root, target);
      if (code !== "ENOENT") throw error;
    }
    if (await isLink(existing)) {
      // A dangling link: where it would lead cannot be checked, so it is not followed.
      throw new Error(
        `Path "${requested}" goes through a symlink whose target does not exist; remove the link or point it inside the workspace ${root}.`,
      );
    }
    const parent = path.dirname(existing);
    if (parent === existing)
      throw new Error(`Path "${requested}" has no existing ancestor; check the workspace ${root}.`);
    missing.unshift(path.basename(existing));
    existing = parent;
  }
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
