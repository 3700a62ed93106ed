// The vocabulary of chapter 14's evaluation harness. A task is data plus two functions (a fresh
// model, a judge); the agent under test is one function that opens a run on a workspace. The
// runner, the verdicts and the evidence are the chapter's labs (verdict.ts, runner.ts, suite.ts).
import type { Message, Model } from "@pi/core";

/** The phases of one run of a case, in the order the runner goes through them. */
export type Phase = "prepare" | "execute" | "collect" | "dispose" | "cleanup" | "judge";

/** What is wrong with an active path, checked before any judge sees it. */
export type PathProblem = "inconsistent" | "cross-assistant" | "duplicate" | "dangling";

/** What a judge sees: the session's active path and the files the task declares, deep-copied and frozen. */
export interface Observation {
  readonly messages: readonly Message[];
  /** Workspace-relative path → content; null when the file does not exist. */
  readonly files: Readonly<Record<string, string | null>>;
}

/** A judge's answer: whether the task succeeded, and the labels of the checks that did not hold. */
export interface Verdict {
  success: boolean;
  unmet: string[];
}

export type Judge = (observation: Observation) => Verdict;

/** How the agent under test is opened for a task. */
export interface TaskAgentOptions {
  /** The context window the agent budgets for (tokens); the task's model enforces the same. */
  contextWindow?: number;
  /** The JSONL of a session an earlier, crashed run left in this workspace: the agent resumes it. */
  session?: (workspace: string) => string;
}

export interface EvalTask {
  name: string;
  /** Workspace-relative path → content, written into a fresh temp workspace for every run. */
  fixture: Readonly<Record<string, string>>;
  /** Files beside the workspace (relative to its parent folder), for tasks about the boundary. */
  outside?: Readonly<Record<string, string>>;
  /** The user's prompts, in order. */
  prompts: readonly string[];
  /** A fresh model for each run: a scripted policy offline, a real provider otherwise. */
  model(): Model;
  /** The workspace-relative files the judge sees. */
  declares: readonly string[];
  judge: Judge;
  agent?: TaskAgentOptions;
}

/** One open run of the agent under test. */
export interface AgentRun {
  /** Resolves once the turn is over and its entries are persisted. */
  prompt(text: string): Promise<void>;
  /** The messages of the session's active path as persisted (calls not repaired). */
  activePath(): Promise<Message[]>;
  dispose(): Promise<void>;
}

export interface AgentSetup {
  workspace: string;
  /** The session file of this run (outside the workspace). */
  sessionFile: string;
  model: Model;
  options: TaskAgentOptions;
}

/** The agent under test: the reference Runtime, or the learner's. */
export type AgentUnderTest = (setup: AgentSetup) => Promise<AgentRun>;

export type Outcome =
  | { verdict: "pass" }
  | { verdict: "fail"; reason: "task"; unmet: number }
  | { verdict: "fail"; reason: PathProblem }
  | { verdict: "error"; phase: Phase };

/** A failure of dispose or cleanup after the primary outcome was settled. */
export interface SecondaryOutcome {
  phase: "dispose" | "cleanup";
}

/** Counts only: nothing a transcript, a file, a path or a call id could leak through. */
export interface Evidence {
  steps: number;
  calls: number;
  tokens: number;
  ms: number;
}

export interface CaseReport {
  task: string;
  outcome: Outcome;
  secondary: SecondaryOutcome[];
  evidence: Evidence;
}

export interface RunOptions {
  /** Milliseconds from some origin; default performance.now. */
  now?: () => number;
  /** Where the runner makes each run's temp folder; default the OS temp folder. */
  tempDir?: string;
  /** Removes a run's folder; replaceable so tests can make cleanup fail. */
  removeFolder?: (folder: { root: string }) => Promise<void>;
}
