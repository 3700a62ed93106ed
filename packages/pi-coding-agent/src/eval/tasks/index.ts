// The practice part of the suite, in the order `npm run eval` runs it. The held-out part lives
// in src/eval-cli/held-out/, which no checkpoint tree holds.
import type { EvalTask } from "../types.js";
import { refuseEscape } from "./boundary.js";
import { fixTest, renameSymbol } from "./code.js";
import { createFromSpec, editConfig, readmeAnswer } from "./files.js";
import { longCompaction } from "./long.js";
import { resumeAfterCrash } from "./resume.js";

export { crashedSession, resumeTask } from "./resume.js";

export const PRACTICE_TASKS: readonly EvalTask[] = [
  readmeAnswer,
  editConfig,
  fixTest,
  renameSymbol,
  createFromSpec,
  refuseEscape,
  longCompaction,
  resumeAfterCrash,
];
