// A small MCP server over stdio for the client's tests: offline, deterministic, plain Node. Each
// behaviour a test needs is a tool or a start-up flag:
//   --answer-version V   answer initialize with protocol version V (default: the client's)
//   --tools N --page-size M   N generated tools `tool_0001`… beside the named ones, M per page
//   --repeat-cursor      every page points at the same cursor
//   --empty-last-cursor  the last page says nextCursor "" (no more pages)
//   --silent-init        never answer initialize
//   --stubborn           ignore stdin EOF and SIGTERM
//   --ignore-eof         ignore stdin EOF, but exit on SIGTERM (saying so on stderr)
//   --term-group         with --ignore-eof: start a grandchild (in this server's group); on SIGTERM,
//                        exit only after the grandchild has ended, saying which signal ended it
//   --fail-start         write a line on stderr and exit 1 before reading anything
//   --child              start a grandchild (which ignores SIGTERM) and print its pid on stderr
// Beyond tools/call's answers, `nokind` writes a message of no JSON-RPC kind and `ask` sends the
// client a request of its own (the answer to it becomes the call's text).
import { spawn } from "node:child_process";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? undefined : argv[at + 1];
};

type Json = Record<string, unknown>;
const write = (message: Json) => process.stdout.write(`${JSON.stringify(message)}\n`);
const result = (id: unknown, value: unknown) => write({ jsonrpc: "2.0", id, result: value });
const text = (value: string) => ({ content: [{ type: "text", text: value }] });

if (flag("fail-start")) {
  process.stderr.write("fixture: starting\nfixture: missing FIXTURE_TOKEN\n");
  process.exit(1);
}
process.stderr.write("fixture: ready\n");
if (flag("stubborn")) {
  process.on("SIGTERM", () => process.stderr.write("fixture: SIGTERM ignored\n"));
  setInterval(() => {}, 60_000);
}
if (flag("ignore-eof") && flag("term-group")) {
  // The grandchild ends on SIGTERM only if the signal reaches the whole group: a SIGTERM sent to
  // this process alone leaves it (and so this process) waiting until the client's SIGKILL.
  const grandchild = spawn(process.execPath, ["-e", "setInterval(()=>{},60000)"], { stdio: "ignore" });
  const ended = new Promise<string>((resolve) =>
    grandchild.once("exit", (code, signal) => resolve(signal ?? `code ${code}`)),
  );
  process.on("SIGTERM", () => {
    process.stderr.write("fixture: SIGTERM, waiting for the grandchild\n");
    void ended.then((how) =>
      process.stderr.write(`fixture: SIGTERM, grandchild ended by ${how}, exiting\n`, () => process.exit(0)),
    );
  });
  setInterval(() => {}, 60_000);
} else if (flag("ignore-eof")) {
  process.on("SIGTERM", () => {
    process.stderr.write("fixture: SIGTERM, exiting\n", () => process.exit(0));
  });
  setInterval(() => {}, 60_000);
}
if (flag("child")) startGrandchild();

const notifications: Json[] = [];
let initializeParams: unknown;
const heldCalls = new Map<unknown, unknown>();
/** The id of each request this server asked the client → the tools/call waiting for its answer. */
const askedBy = new Map<string, unknown>();
/** `pair` calls waiting for their partner: the second is answered first. */
const pairs: { id: unknown; text: string }[] = [];

const NAMED_TOOLS = [
  {
    name: "echo",
    description: "Echoes its text",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
  },
  { name: "params", description: "Returns the params it received", inputSchema: { type: "object" } },
  {
    name: "seen",
    description: "Returns the notifications and initialize params received",
    inputSchema: { type: "object" },
  },
  { name: "mixed", description: "Text, an image and a resource", inputSchema: { type: "object" } },
  { name: "fail", description: "Fails with isError", inputSchema: { type: "object" } },
  { name: "hold", description: "Answers only once the call is cancelled", inputSchema: { type: "object" } },
  { name: "garbage", description: "Writes a garbage line, then answers", inputSchema: { type: "object" } },
  { name: "halves", description: "Writes its answer in two halves", inputSchema: { type: "object" } },
  { name: "exit", description: "Exits in the middle of the call", inputSchema: { type: "object" } },
  { name: "huge", description: "Writes 50 MB on one line", inputSchema: { type: "object" } },
  { name: "spawn", description: "Starts a grandchild and returns its pid", inputSchema: { type: "object" } },
  { name: "env", description: "Returns the names of its environment variables", inputSchema: { type: "object" } },
  {
    name: "nokind",
    description: "Writes a message of no JSON-RPC kind, then answers",
    inputSchema: { type: "object" },
  },
  {
    name: "ask",
    description: "Asks the client a request, answers with the client's reply",
    inputSchema: { type: "object" },
  },
];

function allTools(): Json[] {
  const count = Number(option("tools") ?? 0);
  const generated = Array.from({ length: count }, (_, i) => ({
    name: `tool_${String(i + 1).padStart(4, "0")}`,
    description: `Generated tool ${i + 1}`,
    inputSchema: { type: "object" },
  }));
  return [...NAMED_TOOLS, ...generated];
}

function listPage(id: unknown, params: Json | undefined) {
  const tools = allTools();
  const size = Number(option("page-size") ?? tools.length);
  const start = typeof params?.cursor === "string" ? Number(params.cursor.replace("page-", "")) : 0;
  const end = start + size;
  const last = flag("empty-last-cursor") ? "" : undefined;
  const next = flag("repeat-cursor") ? "page-1" : end < tools.length ? `page-${end}` : last;
  result(id, { tools: tools.slice(start, end), ...(next === undefined ? {} : { nextCursor: next }) });
}

function call(id: unknown, params: Json) {
  switch (params.name) {
    case "echo":
      return result(id, text(String((params.arguments as Json | undefined)?.text ?? "")));
    case "params":
      return result(id, text(JSON.stringify(params)));
    case "seen":
      return result(id, text(JSON.stringify({ notifications, initializeParams })));
    case "mixed":
      return result(id, {
        content: [
          { type: "text", text: "a chart:" },
          { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
          { type: "resource", resource: { uri: "file:///tmp/report.txt", text: "report" } },
        ],
      });
    case "fail":
      return result(id, { ...text("disk quota exceeded"), isError: true });
    case "hold":
      heldCalls.set(id, id);
      return;
    case "garbage":
      process.stdout.write("this is not json\n");
      return result(id, text("after garbage"));
    case "halves": {
      const line = `${JSON.stringify({ jsonrpc: "2.0", id, result: text("joined") })}\n`;
      process.stdout.write(line.slice(0, 10));
      setTimeout(() => process.stdout.write(line.slice(10)), 50);
      return;
    }
    case "exit":
      process.stderr.write("fixture: crashing mid-call\n");
      process.exit(3);
      return;
    case "huge":
      process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`);
      process.stdout.write("x".repeat(50 * 1024 * 1024));
      process.stdout.write('"}]}}\n');
      return;
    case "spawn":
      return result(id, text(String(startGrandchild())));
    case "env":
      return result(id, text(JSON.stringify(Object.keys(process.env).sort())));
    case "nokind":
      // An id and neither result nor error: no JSON-RPC kind at all.
      write({ jsonrpc: "2.0", id: "x-1" });
      return result(id, text("after nokind"));
    case "pair": {
      // Not in NAMED_TOOLS either: held until a second call arrives, then answered out of order.
      pairs.push({ id, text: String((params.arguments as Json | undefined)?.text ?? "") });
      if (pairs.length < 2) return;
      for (const call of pairs.splice(0).reverse()) result(call.id, text(call.text));
      return;
    }
    case "nullerror":
      // An error answering no request (the server could not read one): id null. Not in NAMED_TOOLS,
      // so the listed tool counts stay what the other tests and the bench expect.
      write({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      return result(id, text("after nullerror"));
    case "ask":
      askedBy.set(`ask-${String(id)}`, id);
      return write({ jsonrpc: "2.0", id: `ask-${String(id)}`, method: "sampling/createMessage", params: {} });
    default:
      return write({ jsonrpc: "2.0", id, error: { code: -32602, message: `Unknown tool: ${String(params.name)}` } });
  }
}

function startGrandchild(): number {
  const child = spawn(process.execPath, ["-e", "process.on('SIGTERM',()=>{});setInterval(()=>{},60000)"], {
    stdio: "ignore",
  });
  child.unref();
  process.stderr.write(`fixture: grandchild ${child.pid}\n`);
  return child.pid ?? 0;
}

function receive(message: Json) {
  const id = message.id;
  const params = message.params as Json | undefined;
  if (typeof id === "string" && askedBy.has(id) && !("method" in message)) {
    const call = askedBy.get(id);
    askedBy.delete(id);
    return result(call, text(JSON.stringify(message)));
  }
  if (!("id" in message)) {
    notifications.push(message);
    if (message.method === "notifications/cancelled") {
      const held = params?.requestId;
      // A late answer to a cancelled request: the client must ignore it.
      if (heldCalls.delete(held)) result(held, text("late answer"));
    }
    return;
  }
  switch (message.method) {
    case "initialize":
      initializeParams = params;
      if (flag("silent-init")) return;
      return result(id, {
        protocolVersion: option("answer-version") ?? params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "fixture", version: "1.0.0" },
      });
    case "tools/list":
      return listPage(id, params);
    case "tools/call":
      return call(id, params ?? {});
    default:
      return write({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
  }
}

let partial = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  const lines = (partial + chunk).split("\n");
  partial = lines.pop() ?? "";
  for (const line of lines) if (line.trim() !== "") receive(JSON.parse(line) as Json);
});
process.stdin.on("end", () => {
  if (!flag("stubborn") && !flag("ignore-eof")) process.exit(0);
});
