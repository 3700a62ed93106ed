// One tiny-pi run as its command line chose it, in the host's words, and whose code it runs on.
// cli/invocation.ts builds the configuration from the parsed flags, in one place; prepare-run.ts
// and assemble-run.ts compose the run from it, each chapter's part where its layer is.
import type { openAICompatibleModel } from "@pi/ai";
import type { createCodeTool } from "../codemode/index.js";
import type { CompactionCode } from "./compaction-code.js";
import type { DurableCode } from "./durable-code.js";
import type { McpCode } from "./mcp-servers.js";
import type { ModelsCode } from "./model-switch.js";
import type { RuntimeCode13 } from "./open-run.js";
import type { ResourceCode } from "./resource-code.js";
import type { SessionCode } from "./session-code.js";
import type { SessionChoice } from "./session-store.js";
import type { DeferChoice, ExposureCode } from "./tool-exposure.js";
import type { ToolFactory } from "./tool-selection.js";

/** A real OpenAI-compatible endpoint (--base-url, --model, --api-key). */
export interface Endpoint {
  baseURL: string;
  model: string;
  apiKey?: string;
}

/** Which models answer: an endpoint, or an id of models.json (--model alone); neither: the embedded model. */
export interface ModelsChoice {
  endpoint?: Endpoint;
  modelName?: string;
}

export interface RunConfig {
  /** Absolute path of the workspace the tools work in. */
  workspace: string;
  /** The user's tiny-pi folder (cli/tiny-pi-home.ts). */
  home: string;
  models: ModelsChoice;
  /** The workspace tools chosen (--tools), in order; `code` is chapter 16's code tool. */
  tools: readonly string[];
  maxSteps?: number;
  /** --context-window and --reserve (tokens); absent: the server's report, a quarter of it. */
  window: { contextWindow?: number; reserve?: number };
  session: SessionChoice;
  /** false: --no-context-files. */
  contextFiles: boolean;
  /** --trust-extensions. */
  trustExtensions: boolean;
  /** --trust-mcp. */
  trustMcp: boolean;
  /** --yes, and the paths write and edit may never touch. */
  gate: { yes: boolean; protectedPaths: readonly string[] };
  /** --defer-tools; absent: extension tools are deferred above the threshold. */
  defer?: DeferChoice;
}

/** The chapters' code a run is composed of; each field absent: the course's own (a learner's with --from). */
export interface RunCode {
  /** Chapter 05's provider, for --base-url and models.json's endpoints. */
  openAICompatibleModel?: typeof openAICompatibleModel;
  /** Chapter 08's workspace tools. */
  createWorkspaceTools?: ToolFactory;
  /** Chapter 10's session store and projection. */
  session?: SessionCode;
  /** Chapter 11's compaction. */
  compaction?: CompactionCode;
  /** Chapter 12's resources and tool hooks. */
  resources?: ResourceCode;
  /** Chapter 13's Runtime, its engines and modes. */
  runtime?: RuntimeCode13;
  /** Chapter 15's exposure: the registry and tool_search. */
  exposure?: ExposureCode;
  /** Chapter 16's code tool: the sandbox and bridge a script runs in. */
  createCodeTool?: typeof createCodeTool;
  /** Chapter 17's MCP client, its stdio transport and the adapter that makes server tools tools. */
  mcp?: McpCode;
  /** Chapter 18's catalogue, routing and the model in force on the branch. */
  models?: ModelsCode;
  /** Chapter 19's durable layer: the commit log the session file is written through, and recovery. */
  durable?: DurableCode;
}
