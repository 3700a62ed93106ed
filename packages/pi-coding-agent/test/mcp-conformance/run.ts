// `npm run test:mcp-conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance,
// a devDependency) judges tiny-pi's MCP client over Streamable HTTP in its client scenarios. The suite
// needs Node >= 22; CI runs this in its Node 22 and 24 phase (scripts/test-on-node.ts). Its result
// folders go to a temp folder that is removed afterwards.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The client scenarios tiny-pi's client passes. */
const SCENARIOS = ["initialize", "tools_call"];

const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  console.error(
    `MCP 一致性测试套件需要 Node >= 22（当前 ${process.version}）：用 npm run test:node -- 22 在 Node 22 上运行`,
  );
  process.exit(2);
}
const suite = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json")),
  "dist/index.js",
);
const client = path.join(path.dirname(fileURLToPath(import.meta.url)), "client.js");
const temp = mkdtempSync(path.join(os.tmpdir(), "mcp-conformance-"));
let failed = 0;
try {
  for (const scenario of SCENARIOS) {
    console.log(`\n=== MCP conformance: client scenario ${scenario} ===`);
    const run = spawnSync(
      process.execPath,
      [suite, "client", "--command", `"${process.execPath}" "${client}"`, "--scenario", scenario],
      { cwd: temp, stdio: "inherit" },
    );
    if (run.status !== 0) {
      failed++;
      console.error(`=== MCP conformance: ${scenario} FAILED (exit ${run.status ?? run.signal}) ===`);
    }
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
process.exit(failed === 0 ? 0 : 1);
