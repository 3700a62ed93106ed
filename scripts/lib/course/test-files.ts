// Where test files are and what they compile to, spelled once: source tests live in
// `packages/<name>/test/`, tsc -b writes them to `packages/<name>/dist/test/` as `.js`.
// Paths are relative to the tree root with `/` separators: Node >= 21 reads `node --test`
// arguments as globs, in which a Windows `\` would be an escape, not a separator.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { filesUnder } from "../trees/tree-fs.js";

const SOURCE_TEST = /^(packages\/[^/]+)\/test\/(.*\.test)\.ts$/;

/** `packages/x/test/y.test.ts` → `packages/x/dist/test/y.test.js`; throws for any other path. */
export function compiledPath(sourceTestPath: string): string {
  const match = SOURCE_TEST.exec(sourceTestPath);
  if (match === null) throw new Error(`not a package test source (packages/<name>/test/…test.ts): ${sourceTestPath}`);
  return `${match[1]}/dist/test/${match[2]}.js`;
}

/** The compiled paths of those among `files` (tree-relative, posix) that are package test sources, in order. */
export function compiledTestsOf(files: Iterable<string>): string[] {
  return [...files].filter((file) => SOURCE_TEST.test(file)).map(compiledPath);
}

/**
 * The compiled test files of the tree `root` (`packages/*\/dist/test/**\/*.test.js`), package by
 * package, sorted; empty when nothing is built.
 */
export async function compiledTestFiles(root: string): Promise<string[]> {
  const packages = (await readdir(path.join(root, "packages")).catch(() => [] as string[])).sort();
  const files: string[] = [];
  for (const pkg of packages) files.push(...(await testFilesUnder(root, `packages/${pkg}/dist/test`, ".test.js")));
  return files;
}

/**
 * Package tests that belong to `npm run test:course`, not `npm test`: those under `test/course/`,
 * checks that run whole programs: tiny-pi end to end as a child process (each chapter adds one),
 * on practice trees built along the chain (--from practice/NN), and upstream Pi 0.73.1 reading and
 * continuing our sessions. Each tiny-pi start costs about half a CPU-second, so they grow with the
 * course; npm test keeps tiny-pi's argument parsing and one real round trip (test/cli-*).
 */
export function isCourseSuiteTest(compiledTest: string): boolean {
  return /^packages\/[^/]+\/dist\/test\/course\//.test(compiledTest);
}

/**
 * The test files one suite runs, in order: `npm test` the course machinery's (scripts/test) and the
 * packages' compiled tests but test:course's; `npm run test:course` the chain's integrity checks
 * (scripts/test-course) and the package tests under test/course/.
 */
export async function suiteFiles(root: string, suite: "npm test" | "test:course"): Promise<string[]> {
  const packageTests = await compiledTestFiles(root);
  return suite === "test:course"
    ? [...(await testFilesUnder(root, "scripts/test-course", ".test.ts")), ...packageTests.filter(isCourseSuiteTest)]
    : [
        ...(await testFilesUnder(root, "scripts/test", ".test.ts")),
        ...packageTests.filter((file) => !isCourseSuiteTest(file)),
      ];
}

/** The files under `root/dir` (posix, relative to `root`) whose names end with `suffix`, sorted; empty when none. */
export async function testFilesUnder(root: string, dir: string, suffix: string): Promise<string[]> {
  return (await filesUnder(root, dir)).filter((file) => file.endsWith(suffix));
}
