// Runs a suite of the repository in one `node --test` process, so the run ends in one summary:
//   npm test              the packages' tests (unit, focused, property, hostile) and the course
//                         machinery's (scripts/test), with the static checks of every checkpoint;
//   npm run test:course   every checkpoint's integrity checks along the chain and the chapters'
//                         mutation checks (scripts/test-course), and the package tests that run whole
//                         programs (packages/*/test/course: tiny-pi end to end, tiny-pi on practice
//                         trees, upstream Pi): the part that grows with the course;
//                         with --node-sensitive only the checks a Node major can change (lib/run/node-sensitive.ts).
// Files are named here because Node 20 does not expand globs and a bare `node --test` at the root
// would also pick up the learners' red practice directories.
import { spawnSync } from "node:child_process";
import { loadManifest, repoRoot as root } from "./lib/course/manifest.js";
import { suiteFiles } from "./lib/course/test-files.js";
import { NODE_SENSITIVE_FLAG, nodeSensitiveEnv } from "./lib/run/node-sensitive.js";
import { suiteEnv, suiteRunnerArgs } from "./lib/run/suite-runner.js";

const course = process.argv[2] === "--course";
const rest = process.argv.slice(course ? 3 : 2);
const nodeSensitive = rest.includes(NODE_SENSITIVE_FLAG);
if (nodeSensitive && !course) {
  console.error(`${NODE_SENSITIVE_FLAG} 只用于 npm run test:course`);
  process.exit(2);
}
const extra = rest.filter((arg) => arg !== NODE_SENSITIVE_FLAG);
const files = await suiteFiles(root, course ? "test:course" : "npm test");
if (files.length === 0) {
  console.error("No test files found: run `npm run build` first.");
  process.exit(1);
}
// A hang guard, not a speed check: a hung test fails by name instead of holding the run. On Node 20
// the limit covers a whole file, so it is far above the slowest file: for the course suite it grows
// with the number of checkpoints (each takes 15-30 s on an idle 2-core machine, several times that
// on a loaded one).
const limitMs = course ? Math.max(600_000, loadManifest().checkpoints.length * 240_000) : 600_000;
const result = spawnSync(
  process.execPath,
  [...suiteRunnerArgs(root), `--test-timeout=${limitMs}`, ...extra, ...files],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...suiteEnv(process.env), ...(nodeSensitive ? nodeSensitiveEnv : {}) },
  },
);
process.exit(result.status ?? 1);
