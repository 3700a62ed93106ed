// `npm run bench -- --only exposure`: chapter 15's tool exposure in one fresh node. The request's
// tool schemas with 100 extension tools all direct against all deferred behind tool_search (bytes
// and chapter 11's token estimate); tool_search's BM25 ranking over 1,000 deferred tools (median
// per query); and replaying the declared set off a 100,000-entry branch holding 1,000 tool-state
// entries (median).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../lib/course/manifest.js";
import { runNode } from "../lib/run/child-process.js";
import { withTempDir } from "../lib/trees/temp-dir.js";
import type { Goal } from "./goals.js";
import { installedPackageDir } from "./pi-upstream.js";
import { PI_PACKAGE, PI_VERSION } from "./session-tree.js";
import { fixed, goalText, type Table } from "./table.js";

export const EXTENSION_TOOLS = 100;
export const SEARCH_TOOLS = 1_000;
export const BRANCH_ENTRIES = 100_000;
export const TOOL_STATE_ENTRIES = 1_000;
export const DEFERRED_SHARE_LIMIT = 0.1;
export const SEARCH_LIMIT_MS = 5;
export const REPLAY_LIMIT_MS = 20;

export interface ExposureReport {
  direct: { bytes: number; tokens: number };
  deferred: { bytes: number; tokens: number };
  search: { tools: number; queries: number; medianMs: number };
  replay: { entries: number; toolStates: number; declared: number; medianMs: number };
  /** Upstream Pi's --offline --export of a session holding tool-state entries: what its page embeds. */
  pi: { version: string; entries: number; toolStates: number; written: number } | { reason: string };
}

function module(): string {
  return pathToFileURL(path.join(repoRoot, "packages/pi-coding-agent/dist/src/index.js")).href;
}

const SCRIPT = (load: string) => `
import { ExposedRegistry, toolSearchTool, rankTools, declaredOn, toolStateEntry, estimateTokens } from ${load};
const median = (times) => { const sorted = [...times].sort((a, b) => a - b); return sorted[sorted.length >> 1]; };
const AREAS = ["issue", "calendar", "deploy", "metrics", "invoice", "ticket", "backup", "dns", "queue", "report"];
const VERBS = ["create", "list", "update", "delete", "close", "search", "export", "import", "archive", "restore"];
const tool = (index) => {
  const area = AREAS[index % AREAS.length], verb = VERBS[Math.floor(index / AREAS.length) % VERBS.length];
  return {
    name: area + "_" + verb + "_" + index,
    description: "Use this to " + verb + " a " + area + " record (number " + index + ") in the team's " + area + " service. Returns the record as JSON, or an error naming the field that was wrong.",
    parameters: { type: "object", properties: {
      id: { type: "string", description: "The " + area + " record's id." },
      project: { type: "string", description: "The project the record belongs to." },
      fields: { type: "object", description: "Fields to set, by name.", additionalProperties: { type: "string" } },
      dryRun: { type: "boolean", description: "Validate only; change nothing." } },
      required: ["id", "project"], additionalProperties: false },
    execute: async () => ({ content: [] }),
  };
};
const size = (definitions) => { const json = JSON.stringify(definitions);
  return { bytes: Buffer.byteLength(json), tokens: estimateTokens({ role: "user", content: json, timestamp: 0 }) }; };
const direct = new ExposedRegistry();
const deferred = new ExposedRegistry();
for (let index = 0; index < ${EXTENSION_TOOLS}; index += 1) { direct.register(tool(index)); deferred.register(tool(index), "deferred"); }
deferred.register(toolSearchTool(deferred));
const many = Array.from({ length: ${SEARCH_TOOLS} }, (_, index) => { const { execute, ...definition } = tool(index); return definition; });
const queries = [];
for (let index = 0; index < 200; index += 1) queries.push(VERBS[index % VERBS.length] + " " + AREAS[(index * 7) % AREAS.length] + " record");
for (const query of queries.slice(0, 20)) rankTools(query, many);
const searchTimes = queries.map((query) => { const started = performance.now(); rankTools(query, many); return performance.now() - started; });
const id = (index) => index.toString(16).padStart(8, "0");
const branch = [];
const every = ${BRANCH_ENTRIES} / ${TOOL_STATE_ENTRIES};
for (let index = 1; index <= ${BRANCH_ENTRIES}; index += 1) {
  const parentId = index === 1 ? null : id(index - 1);
  if (index % every === 0) {
    const change = { added: [many[index % ${SEARCH_TOOLS}]].map(({ name, description, parameters }) => ({ name, description, parameters })), removed: index % (every * 3) === 0 ? [many[(index + 500) % ${SEARCH_TOOLS}].name] : [] };
    branch.push(toolStateEntry(change, parentId, id(index)));
  } else branch.push({ type: "message", id: id(index), parentId, timestamp: "2026-12-01T10:00:00.000Z", message: { role: "user", content: "step " + index, timestamp: index } });
}
let declared = 0;
for (let round = 0; round < 3; round += 1) declaredOn(branch);
const replayTimes = Array.from({ length: 11 }, () => { const started = performance.now(); declared = declaredOn(branch).length; return performance.now() - started; });
console.log(JSON.stringify({
  direct: size(direct.definitions()), deferred: size(deferred.definitions()),
  search: { tools: ${SEARCH_TOOLS}, queries: queries.length, medianMs: median(searchTimes) },
  replay: { entries: branch.length, toolStates: ${TOOL_STATE_ENTRIES}, declared, medianMs: median(replayTimes) },
}));
`;

/** A session file written by our JsonlSessionStore: a user turn, a tool_search, and two tool-state changes. */
const SESSION_SCRIPT = (load: string) => `
import { JsonlSessionStore, newHeader, messageEntry, toolStateEntry } from ${load};
const store = await JsonlSessionStore.create(process.argv[1], newHeader(process.argv[2]));
const at = (n) => n.toString(16).padStart(8, "0");
const tool = (name, description) => ({ name, description, parameters: { type: "object", properties: { target: { type: "string" } } } });
const call = (id, name, args) => ({ role: "assistant", content: [{ type: "toolCall", id, name, arguments: args }], stopReason: "toolUse", timestamp: 2 });
const result = (id, name, text) => ({ role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text }], isError: false, timestamp: 3 });
const entries = [
  messageEntry({ role: "user", content: "把网站部署上去", timestamp: 1 }, null, at(1)),
  toolStateEntry({ added: [tool("read", "Read a file."), tool("tool_search", "Search deferred tools.")], removed: [] }, at(1), at(2)),
  messageEntry(call("c1", "tool_search", { query: "deploy website" }), at(2), at(3)),
  messageEntry(result("c1", "tool_search", "Loaded 1 tool(s)"), at(3), at(4)),
  toolStateEntry({ added: [tool("deploy_site", "Deploy the website.")], removed: [] }, at(4), at(5)),
  messageEntry(call("c2", "deploy_site", { target: "prod" }), at(5), at(6)),
  messageEntry(result("c2", "deploy_site", "deployed"), at(6), at(7)),
  messageEntry({ role: "assistant", content: [{ type: "text", text: "部署好了" }], stopReason: "stop", timestamp: 4 }, at(7), at(8)),
];
for (const entry of entries) await store.append(entry);
console.log(JSON.stringify({ written: entries.length }));
`;

async function piExport(progress: (message: string) => void): Promise<ExposureReport["pi"]> {
  const installed = await installedPackageDir(PI_PACKAGE, PI_VERSION, progress);
  if ("reason" in installed) return { reason: installed.reason };
  return withTempDir("pi-bench-exposure-", async (dir) => {
    const file = path.join(dir, "session.jsonl");
    const wrote = await runNode(
      ["--input-type=module", "-e", SESSION_SCRIPT(JSON.stringify(module())), file, dir],
      repoRoot,
    );
    if (wrote.code !== 0) throw new Error(`exposure bench session failed: ${wrote.output.split("\n")[0]}`);
    const { written } = JSON.parse(wrote.output.trim().split("\n").at(-1) ?? "") as { written: number };
    const home = path.join(dir, "pi-home");
    mkdirSync(home);
    const out = path.join(dir, "pi-export.html");
    const result = spawnSync(
      process.execPath,
      [path.join(installed.dir, "dist", "cli.js"), "--offline", "--export", file, out],
      {
        cwd: dir,
        env: { ...process.env, HOME: home, USERPROFILE: home },
        encoding: "utf8",
      },
    );
    if (result.status !== 0) {
      return { reason: `pi --export failed: ${`${result.stderr}${result.stdout}`.trim().split("\n")[0]}` };
    }
    const page = await readFile(out, "utf8");
    const data = /<script id="session-data"[^>]*>([^<]*)<\/script>/.exec(page)?.[1];
    if (data === undefined) return { reason: "pi --export wrote no session-data script" };
    const session = JSON.parse(Buffer.from(data.trim(), "base64").toString("utf8")) as {
      entries?: { type: string; customType?: string }[];
    };
    const entries = session.entries ?? [];
    const toolStates = entries.filter(
      (entry) => entry.type === "custom" && entry.customType === "pi-course/tool-state",
    ).length;
    return { version: installed.version, entries: entries.length, toolStates, written };
  });
}

export async function measureExposure(progress: (message: string) => void): Promise<ExposureReport> {
  const result = await runNode(["--input-type=module", "-e", SCRIPT(JSON.stringify(module()))], repoRoot);
  if (result.code !== 0) throw new Error(`exposure bench child failed: ${result.output.split("\n")[0]}`);
  const measured = JSON.parse(result.output.trim().split("\n").at(-1) ?? "") as Omit<ExposureReport, "pi">;
  progress("exposure: upstream Pi's --offline --export of a session with tool-state entries…");
  return { ...measured, pi: await piExport(progress) };
}

export function exposureGoals(report: ExposureReport): Goal[] {
  const share = report.deferred.bytes / report.direct.bytes;
  const lost = "version" in report.pi ? report.pi.written - report.pi.entries : Number.NaN;
  return [
    {
      name: "exposure: entries of a session with tool-state changes that Pi's --export left out",
      value: lost,
      limit: 0,
      unit: "entries",
      met: lost === 0,
    },
    {
      name: `exposure: tool schemas with ${EXTENSION_TOOLS} extension tools deferred, share of all direct`,
      value: share,
      limit: DEFERRED_SHARE_LIMIT,
      unit: "×",
      met: share <= DEFERRED_SHARE_LIMIT,
    },
    {
      name: `exposure: tool_search over ${report.search.tools} tools, median per query`,
      value: report.search.medianMs,
      limit: SEARCH_LIMIT_MS,
      unit: "ms",
      met: report.search.medianMs <= SEARCH_LIMIT_MS,
    },
    {
      name: `exposure: declared set of a ${report.replay.entries}-entry branch with ${report.replay.toolStates} tool-state entries`,
      value: report.replay.medianMs,
      limit: REPLAY_LIMIT_MS,
      unit: "ms",
      met: report.replay.medianMs <= REPLAY_LIMIT_MS,
    },
  ];
}

export function exposureTable(report: ExposureReport): Table {
  return {
    title: `Tool exposure: ${EXTENSION_TOOLS} extension tools, tool_search over ${report.search.tools}, a ${report.replay.entries}-entry branch`,
    headers: ["measure", "value"],
    rows: [
      ["request tool schemas, all direct (bytes / est. tokens)", `${report.direct.bytes} / ${report.direct.tokens}`],
      [
        "request tool schemas, all deferred + tool_search (bytes / est. tokens)",
        `${report.deferred.bytes} / ${report.deferred.tokens}`,
      ],
      [
        `tool_search BM25 over ${report.search.tools} tools (median ms, ${report.search.queries} queries)`,
        fixed(report.search.medianMs, 3),
      ],
      [
        `declaredOn over ${report.replay.entries} entries, ${report.replay.toolStates} tool states (median ms)`,
        fixed(report.replay.medianMs, 2),
      ],
    ],
    notes: exposureGoals(report).map((entry) =>
      goalText(entry.name, `${fixed(entry.value, 3)} ${entry.unit}`, `${entry.limit} ${entry.unit}`, entry.met),
    ),
  };
}
