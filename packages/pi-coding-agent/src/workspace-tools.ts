// Chapter 08's tools as one set bound to a workspace root: read, write, edit, bash, in that order.
import path from "node:path";
import type { Tool } from "@pi/core";
import { createBashTool } from "./tools/bash.js";
import { createEditTool } from "./tools/edit.js";
import { createReadTool } from "./tools/read.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "./tools/truncate.js";
import { createWriteTool } from "./tools/write.js";

export interface WorkspaceToolsOptions {
  /** bash's timeout when a call gives none; default 120. */
  bashTimeoutSeconds?: number;
  /** Output cap in lines for read and bash; default 2000. */
  maxLines?: number;
  /** Output cap in bytes for read and bash; default 51200 (50 KB). */
  maxBytes?: number;
}

export const DEFAULT_BASH_TIMEOUT_SECONDS = 120;

/** The four workspace tools; every path they take is resolved inside `root`, at use. */
export function createWorkspaceTools(workspace: string, options: WorkspaceToolsOptions = {}): Tool[] {
  const root = path.resolve(workspace); // messages name the workspace as an absolute path
  const limits = {
    maxLines: positive("maxLines", options.maxLines ?? DEFAULT_MAX_LINES),
    maxBytes: positive("maxBytes", options.maxBytes ?? DEFAULT_MAX_BYTES),
  };
  const timeoutSeconds = positive("bashTimeoutSeconds", options.bashTimeoutSeconds ?? DEFAULT_BASH_TIMEOUT_SECONDS);
  return [
    createReadTool(root, limits),
    createWriteTool(root),
    createEditTool(root),
    createBashTool(root, { timeoutSeconds, limits }),
  ];
}

function positive(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`createWorkspaceTools: ${name} must be a positive number, got ${String(value)}`);
  }
  return value;
}
