// A record of focused runs that passed, so tiny-pi does not run a chapter's focused tests again on
// the same compiled code: each run of `--from practice/12` would otherwise run seven chapters'
// tests before it starts. The key is the SHA-256 of everything the run could depend on: the
// chapter, Node's version and every compiled file (`dist/**/*.js`) of the tree's packages, so a
// rebuilt change, however small, is a new key and is tested again. Records live in the user's
// temp folder, never in the practice directory; a record that cannot be read or written only
// means the tests run.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const RECORDS = path.join(os.tmpdir(), `tiny-pi-focused-passes-${os.userInfo().uid}`);

/** The SHA-256 of every compiled file of `tree`'s packages as they are now: read once per run, whatever the chapters. */
export function compiledDigest(tree: string): string {
  const hash = createHash("sha256");
  const packages = path.join(tree, "packages");
  for (const name of existsSync(packages) ? readdirSync(packages).sort() : []) {
    for (const file of compiledFiles(path.join(packages, name, "dist"))) {
      hash
        .update(`${name}/${path.relative(packages, file)}\0`)
        .update(readFileSync(file))
        .update("\0");
    }
  }
  return hash.digest("hex");
}

/** The key of `checkpoint`'s focused run on the compiled code whose digest is `digest`. */
export function focusedRunKey(digest: string, checkpoint: string): string {
  return createHash("sha256").update(`${checkpoint}\0${process.version}\0${digest}`).digest("hex");
}

export function passedBefore(key: string): boolean {
  return existsSync(path.join(RECORDS, key));
}

export function recordPass(key: string): void {
  try {
    mkdirSync(RECORDS, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(RECORDS, key), "");
  } catch {
    // Without a record the next run simply tests again.
  }
}

function compiledFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...compiledFiles(full));
    else if (entry.isFile() && entry.name.endsWith(".js")) files.push(full);
  }
  return files;
}
