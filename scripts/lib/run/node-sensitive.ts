// `npm run test:course -- --node-sensitive`: the course's checks whose outcome can change with the
// Node major (the test runner's reports, filters and timeouts; focused tests turning red and green
// lab by lab; the diagnostic; tiny-pi end to end; tiny-pi and eval running learner code), and not
// those that read only files (tree contents, parent = previous target, what --from carries, the
// course list) or judge the tests' strength against planted mistakes (and the eval's against
// planted defects). CI runs the whole suite on Node 20 and this part on Node 22 and 24 (`npm run
// test:node -- --node-sensitive 22 24`), so every check runs at least once and every Node runs the
// ones a Node could break.
export const NODE_SENSITIVE_FLAG = "--node-sensitive";

/** Set by scripts/test.ts for the test files of that run. */
const ENV = "PI_COURSE_NODE_SENSITIVE_ONLY";

/** The environment entry that puts a test run in this mode. */
export const nodeSensitiveEnv = { [ENV]: "1" } as const;

/** Whether this test run keeps only the Node-sensitive checks. */
export function nodeSensitiveOnly(): boolean {
  return process.env[ENV] === "1";
}

/** The skip reason of a check that does not depend on the Node major, when the run keeps only the others. */
export function skipUnlessFullRun(): string | false {
  return nodeSensitiveOnly() ? "与 Node 版本无关：完整的 npm run test:course（CI 在 Node 20 上）运行它" : false;
}
