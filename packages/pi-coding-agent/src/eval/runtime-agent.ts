// The agent the suite evaluates: chapter 13's Runtime over chapter 08's tools and a chapter 10
// session file, opened the way tiny-pi opens it. A session left by a crash is resumed at its last
// entry; a call whose result was never written gets an interrupted result entry first, so the
// resumed path holds no silent orphan. Every import is this tree's own: from a practice tree,
// every layer is the learner's.
import { existsSync } from "node:fs";
import { type Message, ToolRegistry } from "@pi/core";
import { openRuntime } from "../runtime/open.js";
import { wireRuntime } from "../runtime/wiring.js";
import { newHeader } from "../session/entries.js";
import { JsonlSessionStore } from "../session/jsonl-store.js";
import { appendUnder, openCallRepairs } from "../session/open-calls.js";
import { createWorkspaceTools } from "../workspace-tools.js";
import type { AgentUnderTest } from "./types.js";

export const EVAL_SYSTEM_PROMPT =
  "You are a coding agent. Work only inside the workspace with the tools read, write, edit and bash; check your work; answer briefly in the user's language.";
/** Tokens kept free for the answer when a task sets a window. */
const ANSWER_RESERVE = 200;
/** bash's limit in the suite: a test run that hangs fails the task instead of the suite. */
const BASH_TIMEOUT_SECONDS = 60;

export const runtimeAgent: AgentUnderTest = async ({ workspace, sessionFile, model, options }) => {
  const tools = new ToolRegistry();
  for (const tool of createWorkspaceTools(workspace, { bashTimeoutSeconds: BASH_TIMEOUT_SECONDS }))
    tools.register(tool);
  const parts = await wireRuntime({ tools, systemPrompt: EVAL_SYSTEM_PROMPT });
  const store = existsSync(sessionFile)
    ? await JsonlSessionStore.open(sessionFile)
    : await JsonlSessionStore.create(sessionFile, newHeader(workspace));
  const last = store.leafId();
  const leaf = last === null ? null : await appendUnder(store, last, openCallRepairs(store.pathTo(last)));
  const runtime = openRuntime({
    session: store,
    ...(leaf === null ? {} : { leaf }),
    model,
    parts,
    ...(options.contextWindow === undefined
      ? {}
      : { window: { tokens: options.contextWindow, reserve: ANSWER_RESERVE } }),
  });
  return {
    async prompt(text) {
      await runtime.prompt(text);
    },
    async activePath() {
      const at = runtime.leafId();
      if (at === null) return [];
      return store.pathTo(at).flatMap((entry): Message[] => (entry.type === "message" ? [entry.message] : []));
    },
    dispose: () => runtime.dispose(),
  };
};
