// The course manifest (packages/pi-course/checkpoints/manifest.json) is the one description of
// every checkpoint; scripts and integrity tests read it through this module only.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (the folder holding the top-level package.json). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export const manifestPath = path.join(repoRoot, "packages/pi-course/checkpoints/manifest.json");

export interface Lab {
  id: string;
  /** The title in the lab's error, `Lab <id> <title> 尚未实现`. */
  title: string;
  /** The chapter's heading for the lab, `实践 <id> · <practice>`. */
  practice: string;
  /** Test-name pattern that selects the lab's focused tests. */
  pattern: string;
  /** How many focused tests the pattern selects. */
  expected: number;
  hint: string;
}

export interface Diagnostic {
  title: string;
  description: string;
  file: string;
  find: string;
  replace: string;
  pattern: string;
  failing: number;
}

export interface Checkpoint {
  id: string;
  title: string;
  chapter: string;
  mode: string;
  package: string;
  parent: { description: string; paths: string[] };
  target: { description: string; paths: string[] };
  teachingFiles: string[];
  /** Teaching file → its starter, both relative to the repository root. */
  starters: Record<string, string>;
  focusedTest: string;
  focusedRun: string;
  build: string;
  firstRed: string;
  labs: Lab[];
  diagnostic: Diagnostic;
}

export interface Manifest {
  checkpoints: Checkpoint[];
}

let cached: Manifest | undefined;

export function loadManifest(): Manifest {
  cached ??= JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  return cached;
}
