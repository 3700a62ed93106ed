// Runs every test of the repository in one `node --test` process, so the run ends in one summary.
// Files are named here because Node 20 does not expand globs and a bare `node --test`
// at the root would also pick up the learners' red practice directories.
import { spawnSync } from "node:child_process";
import { repoRoot as root } from "./lib/course/manifest.js";
import { compiledTestFiles, testFilesUnder } from "./lib/course/test-files.js";

const files = [...(await compiledTestFiles(root)), ...(await testFilesUnder(root, "scripts/test", ".test.ts"))];
if (files.length === 0) {
  console.error("No test files found: run `npm run build` first.");
  process.exit(1);
}
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", ...process.argv.slice(2), ...files], {
  cwd: root,
  stdio: "inherit",
  // The focused test file tells a learner at the repository root that this is the reference loop;
  // the repository's own suite tests the reference on purpose.
  env: { ...process.env, PI_COURSE_SUITE: "1" },
});
process.exit(result.status ?? 1);
