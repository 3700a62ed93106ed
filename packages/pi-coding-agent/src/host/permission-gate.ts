// The permission gate: tiny-pi's built-in extension, the chapter's worked example of a `before`
// hook. Before write, edit or bash (and an MCP server's tool not marked read-only) it decides:
//   - write/edit of a protected path (.git/, .tiny-pi/, node_modules/ by default): denied, even with --yes;
//   - --yes: allowed;
//   - "always" answered earlier for this tool: allowed;
//   - no terminal: denied (the default a script or CI gets);
//   - otherwise the call is shown (command, or path and diff preview) and the person answers
//     y / n / always for this tool.
// A denial reaches the model as the call's paired error result (hookedRegistry), and the turn goes on.
import path from "node:path";
import type { BeforeDecision, BeforeHook, HookCall } from "../index.js";
import { resolveWorkspacePath, workspaceRealPath } from "../tools/workspace-path.js";
import { callPreview } from "./call-preview.js";
import type { Questions } from "./questions.js";

export interface GateOptions {
  workspace: string;
  /** --yes. */
  yes: boolean;
  /** Folders relative to the workspace, each ending in "/" (args.ts). */
  protectedPaths: readonly string[];
  /** The terminal to ask on; absent when there is none. */
  questions?: Questions;
  /** Where the call is shown before the question. */
  notes: { write(text: string): unknown };
  /** Other tools with side effects the gate asks about too (MCP servers' tools, unless marked read-only). */
  alsoGated?: ReadonlySet<string>;
}

export const GATED_TOOLS: ReadonlySet<string> = new Set(["write", "edit", "bash"]);

/** The gate's before hook: undefined (no opinion) for tools it does not gate. */
export function permissionGate(options: GateOptions): BeforeHook {
  const always = new Set<string>();
  return async (call, context) => {
    if (!GATED_TOOLS.has(call.name) && options.alsoGated?.has(call.name) !== true) return undefined;
    if (call.name === "write" || call.name === "edit") {
      const protectedBy = await protectedFolder(call, options);
      if (protectedBy !== undefined) {
        return deny(
          `${call.name} of ${String(call.arguments.path)} is denied: ${protectedBy} is a protected path (--protected-paths), never changed by tools, even with --yes`,
        );
      }
    }
    if (options.yes || always.has(call.name)) return { allow: true };
    const questions = options.questions;
    if (questions === undefined) {
      return deny(`${call.name} is denied: there is no terminal to ask the user, and tiny-pi was not run with --yes`);
    }
    options.notes.write(`${await callPreview(call, options.workspace)}\n`);
    const answer = (await questions.ask(`允许吗？(y / n / always for this tool)`, context.signal)).toLowerCase();
    if (answer === "always" || answer === "a") always.add(call.name);
    if (answer === "y" || answer === "yes" || always.has(call.name)) return { allow: true };
    return deny(`${call.name} is denied: the user answered no to this call`);
  };
}

function deny(reason: string): BeforeDecision {
  return { allow: false, reason };
}

/**
 * The protected folder `call`'s path lies in, by real path (a link inside the workspace that leads
 * into .git/ is caught too). A one-segment entry (".git/") protects that folder at any depth; a longer
 * one ("docs/api/") only at the workspace's top. A path the tool itself would refuse is left to it.
 */
async function protectedFolder(call: HookCall, options: GateOptions): Promise<string | undefined> {
  const requested = call.arguments.path;
  if (typeof requested !== "string" || options.protectedPaths.length === 0) return undefined;
  let relative: string;
  try {
    const real = await resolveWorkspacePath(options.workspace, requested);
    relative = path
      .relative(await workspaceRealPath(options.workspace), real)
      .split(path.sep)
      .join("/");
  } catch {
    return undefined;
  }
  const fold = (text: string) => (process.platform === "linux" ? text : text.toLowerCase());
  const segments = fold(relative).split("/");
  return options.protectedPaths.find((entry) => {
    const folder = fold(entry.replace(/\/$/, ""));
    if (!folder.includes("/")) return segments.includes(folder);
    return fold(relative) === folder || fold(relative).startsWith(`${folder}/`);
  });
}
