import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../manifest.js";

/** A repository file's text, or undefined when it cannot be read (the structure check reports that). */
export function readRepo(relative: string): string | undefined {
  try {
    return readFileSync(path.join(repoRoot, ...relative.split("/")), "utf8");
  } catch {
    return undefined;
  }
}
