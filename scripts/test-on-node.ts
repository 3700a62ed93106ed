// Runs the whole suite (`npm test`, `npm run test:course`, the MCP conformance scenarios) again under other Node majors: each is fetched from the npm
// registry as the `node-<platform>-<arch>` package into a temp folder, put first on PATH, and
// removed afterwards (also on Ctrl-C). Node's test runner differs between majors (filtered counts,
// glob expansion, reporters), so CI runs the README's `npm test`, then this for Node 22 and 24.
//
//   npm run test:node -- 22 24     the suites under the newest Node 22, then the newest Node 24
//   npm run test:node -- --node-sensitive 22 24
//                                  the same, with test:course's Node-sensitive checks only
//                                  (lib/run/node-sensitive.ts): what CI runs after the whole of
//                                  both suites on Node 20
//   npm run test:matrix            npm test and test:course, then the lighter pass under Node 22 and 24
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "./lib/course/manifest.js";
import { npmContext, npmInvocation } from "./lib/run/child-process.js";
import { NODE_SENSITIVE_FLAG } from "./lib/run/node-sensitive.js";

/**
 * The suites CI runs on every Node: the README's `npm test`, then the course's integrity suite, then
 * the official MCP conformance suite against tiny-pi's MCP client (it needs Node >= 22, so it runs here
 * and not on the machine's Node 20).
 */
const argv = process.argv.slice(2);
const nodeSensitive = argv.includes(NODE_SENSITIVE_FLAG);
const SUITES = [
  ["test"],
  ["run", "test:course", ...(nodeSensitive ? ["--", NODE_SENSITIVE_FLAG] : [])],
  ["run", "test:mcp-conformance"],
];

const NODE_EXE = process.platform === "win32" ? "node.exe" : "node";
const majors = argv.filter((arg) => arg !== NODE_SENSITIVE_FLAG);
if (majors.length === 0 || majors.some((major) => !/^\d+$/.test(major))) {
  console.error(
    `用法：npm run test:node -- [${NODE_SENSITIVE_FLAG}] <Node 主版本号…>，例如 npm run test:node -- ${NODE_SENSITIVE_FLAG} 22 24`,
  );
  process.exit(2);
}

const temp = mkdtempSync(path.join(os.tmpdir(), "pi-course-node-"));
const removeTemp = () => rmSync(temp, { recursive: true, force: true });
let suite: ChildProcess | undefined;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    suite?.kill(signal);
    removeTemp();
    process.exit(128 + (os.constants.signals[signal] ?? 1));
  });
}

let failed = 0;
try {
  for (const major of majors) failed += (await runSuiteOn(major)) ? 0 : 1;
} finally {
  removeTemp();
}
process.exit(failed === 0 ? 0 : 1);

/** Fetches Node `major`, runs each suite with it first on PATH; true when every suite passed. */
async function runSuiteOn(major: string): Promise<boolean> {
  const fetching = performance.now();
  const nodeBin = fetchNode(major);
  if (nodeBin === undefined) return false;
  console.log(`\n=== Node ${major} fetched in ${seconds(fetching)} ===`);
  const node = path.join(nodeBin, NODE_EXE);
  const version = execFileSync(node, ["--version"]).toString().trim();
  for (const args of SUITES) {
    const name = `npm ${args.join(" ")}`;
    console.log(`\n=== ${name} on Node ${version} ===\n`);
    const started = performance.now();
    const npm = npmInvocation(args, { ...npmContext(), execPath: node });
    suite = spawn(npm.command, npm.args, {
      cwd: repoRoot,
      stdio: "inherit",
      shell: npm.shell,
      env: { ...process.env, PATH: `${nodeBin}${path.delimiter}${process.env.PATH ?? ""}` },
    });
    const status = await new Promise<number | string | null>((resolve) =>
      suite?.on("close", (code, signal) => resolve(code ?? signal)),
    );
    suite = undefined;
    if (status !== 0) {
      console.error(`\n=== Node ${version}: ${name} FAILED (exit ${status}) after ${seconds(started)} ===`);
      return false;
    }
    console.log(`\n=== Node ${version}: ${name} passed in ${seconds(started)} ===`);
  }
  return true;
}

/** The time since `start` (a performance.now() reading) in whole seconds, for CI's log of phases. */
function seconds(start: number): string {
  return `${Math.round((performance.now() - start) / 1000)} s`;
}

/** The folder holding the fetched `node` binary, or undefined (with one line said) when it cannot be had. */
function fetchNode(major: string): string | undefined {
  const platform = process.platform === "win32" ? "win" : process.platform;
  const spec = `node-${platform}-${process.arch}@${major}`;
  const dir = path.join(temp, major);
  const npm = npmInvocation(["pack", spec, "--silent", "--pack-destination", temp], npmContext());
  const packed = spawnSync(npm.command, npm.args, { cwd: temp, shell: npm.shell, encoding: "utf8" });
  const tarball = packed.stdout?.trim().split("\n").pop();
  if (packed.status !== 0 || tarball === undefined || tarball === "") {
    console.error(`无法从 npm 取得 ${spec}：${(packed.stderr ?? "").trim().split("\n")[0] ?? ""}（需要联网）`);
    return undefined;
  }
  execFileSync("tar", ["xzf", path.join(temp, tarball), "-C", temp]);
  renameSync(path.join(temp, "package"), dir);
  const bin = [path.join(dir, "bin"), dir].find((candidate) => existsSync(path.join(candidate, NODE_EXE)));
  if (bin === undefined) console.error(`${spec} 里没有 node 可执行文件`);
  return bin;
}
