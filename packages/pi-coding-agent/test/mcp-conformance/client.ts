// The client command the official MCP conformance suite runs: `node client.js <server url>`, with the
// scenario's name in MCP_CONFORMANCE_SCENARIO. It speaks Streamable HTTP through tiny-pi's MCP client:
// initialise, list the tools, and in `tools_call` call each tool with arguments made from its schema.
import { McpClient, type McpToolInfo, StreamableHttpTransport } from "../../src/mcp/index.js";

const url = process.argv.at(-1);
if (url === undefined || !/^https?:\/\//.test(url)) {
  console.error("usage: node client.js <MCP server URL>");
  process.exit(2);
}
// The suite's server listens on every interface and names it `localhost`; this client speaks to
// 127.0.0.1 only.
const loopback = url.replace("//localhost:", "//127.0.0.1:");
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "initialize";

const client = await McpClient.connect(new StreamableHttpTransport({ url: loopback }), {
  onError: (error) => console.error(error.message),
});
try {
  console.log(
    `initialized: ${client.server.serverInfo.name} ${client.server.serverInfo.version} (${client.server.protocolVersion})`,
  );
  const tools = await client.listTools();
  console.log(`tools: ${tools.map((tool) => tool.name).join(", ") || "(none)"}`);
  if (scenario === "tools_call") {
    for (const tool of tools) {
      const result = await client.callTool(tool.name, exampleArguments(tool));
      console.log(`${tool.name}: ${result.isError ? "error: " : ""}${result.text}`);
    }
  }
} finally {
  await client.close();
}

/** An argument for each required property, by its JSON Schema type. */
function exampleArguments(tool: McpToolInfo): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: string }>; required?: string[] };
  const args: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const type = schema.properties?.[name]?.type;
    args[name] = type === "number" || type === "integer" ? 2 : type === "boolean" ? true : type === "string" ? "x" : {};
  }
  return args;
}
