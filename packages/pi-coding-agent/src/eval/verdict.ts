// Lab 14.1 · 判决: the active path is checked before any judge sees it; a judge decides only
// whether the task succeeded, and a verdict that contradicts itself is the judge's failure.
import { type Message, toolCallsOf } from "@pi/core";
import type { Judge, Observation, Outcome, PathProblem, Verdict } from "./types.js";

/**
 * The first problem of `messages` as a transcript, or undefined when it is consistent: it starts
 * with a user message (an empty path does not: "inconsistent"); each assistant's calls have ids
 * never used before, not even in the same message ("duplicate"); results follow their own
 * assistant directly, one per call ("duplicate" for a second one, even when another assistant came
 * in between: a result already given is checked first), a result for an earlier assistant's call
 * (any assistant in between ends the batch, with calls or without) is "cross-assistant", one for
 * no call "inconsistent"; a call that never gets a result is "dangling".
 */
export function checkActivePath(messages: readonly Message[]): PathProblem | undefined {
  // Lab 14.1 ① the walk: the current batch, every call seen, every call answered.
  if (messages[0]?.role !== "user") return "inconsistent";
  const seen = new Map<string, string>();
  const answered = new Set<string>();
  let batch = new Set<string>();
  let inBatch = false;
  for (const message of messages) {
    if (message.role === "toolResult") {
      const name = seen.get(message.toolCallId);
      if (answered.has(message.toolCallId)) return "duplicate";
      if (name === undefined) return "inconsistent";
      if (!inBatch || !batch.has(message.toolCallId)) return "cross-assistant";
      if (name !== message.toolName) return "inconsistent";
      answered.add(message.toolCallId);
      continue;
    }
    inBatch = false;
    if (message.role === "assistant") {
      batch = new Set();
      for (const call of toolCallsOf(message)) {
        if (seen.has(call.id)) return "duplicate";
        seen.set(call.id, call.name);
        batch.add(call.id);
      }
      inBatch = batch.size > 0;
    } else if (message.role !== "user") {
      return "inconsistent";
    }
  }
  // Lab 14.1 ② a call nobody answered.
  for (const id of seen.keys()) if (!answered.has(id)) return "dangling";
  return undefined;
}

/** The verdict when it is one: exactly `success` and `unmet`, and success exactly when nothing is unmet. */
export function readVerdict(value: unknown): Verdict | undefined {
  // Lab 14.1 ③ a verdict that says two things is no verdict.
  if (typeof value !== "object" || value === null) return undefined;
  const keys = Object.keys(value).sort();
  if (keys.length !== 2 || keys[0] !== "success" || keys[1] !== "unmet") return undefined;
  const { success, unmet } = value as Record<string, unknown>;
  if (typeof success !== "boolean" || !Array.isArray(unmet)) return undefined;
  if (!unmet.every((label) => typeof label === "string")) return undefined;
  if (success !== (unmet.length === 0)) return undefined;
  return { success, unmet: [...unmet] };
}

/**
 * The outcome of a frozen observation: the active path first (the judge is not asked about a
 * broken transcript), then the judge. A judge that throws or contradicts itself is an error of
 * phase "judge", and nothing of what it threw is kept.
 */
export function judgeRun(observation: Observation, judge: Judge): Outcome {
  // Lab 14.1 ④ path, then judge, then the verdict's shape.
  const problem = checkActivePath(observation.messages);
  if (problem !== undefined) return { verdict: "fail", reason: problem };
  let verdict: Verdict | undefined;
  try {
    verdict = readVerdict(judge(observation));
  } catch {
    return { verdict: "error", phase: "judge" };
  }
  if (verdict === undefined) return { verdict: "error", phase: "judge" };
  return verdict.success ? { verdict: "pass" } : { verdict: "fail", reason: "task", unmet: verdict.unmet.length };
}
