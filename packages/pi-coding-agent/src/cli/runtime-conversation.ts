// The REPL's view of the Runtime: one prompt per line, a line typed meanwhile steered in (when
// the engine can) or queued by the REPL, /tree drawn from the session, /branch ID reopening the
// Runtime at another entry. Nothing here persists or builds a context: the Runtime does.
import type { AgentRunResult } from "@pi/course";
import type { SessionCode } from "../host/session-code.js";
import { branchLeaf, type HostSession } from "../host/session-store.js";
import type { Runtime } from "../runtime/index.js";
import type { Conversation, ReplOptions } from "./repl.js";
import { promptFailure } from "./run-outcome.js";
import { formatTree } from "./session-view.js";

export function runtimeConversation(runtime: Runtime, loopSource: string, steers: boolean): Conversation {
  return {
    async prompt(text): Promise<AgentRunResult> {
      try {
        return await runtime.prompt(text);
      } catch (error) {
        throw promptFailure(error, loopSource);
      }
    },
    ...(steers ? { steer: (text: string) => void runtime.steer(text) } : {}),
    abort: () => runtime.abort(),
    queued: () => runtime.queued(),
  };
}

export interface RuntimeHandle {
  current(): Runtime;
  /** Waits for the session's writes; a failure is told once. */
  saved(): Promise<void>;
  /** Disposes the current Runtime and opens one at `leaf`; resolves with the conversation on it. */
  reopen(leaf: string): Promise<Conversation>;
}

/** /tree and /branch ID on the run's session. */
export function sessionCommands(
  session: HostSession,
  code: SessionCode | undefined,
  handle: RuntimeHandle,
): NonNullable<ReplOptions["session"]> {
  return {
    async tree() {
      await handle.saved();
      const file = session.file();
      if (session.none) return "（--no-session：这次运行不记录会话，没有会话树）";
      if (file === undefined) return "（会话还没有条目：模型第一次回答时才创建会话文件）";
      return formatTree(session.store.entries(), handle.current().leafId(), file);
    },
    saved: () => handle.saved(),
    async branch(id) {
      await handle.saved();
      return handle.reopen(await branchLeaf(session, id, code));
    },
  };
}
