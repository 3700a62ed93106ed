// How a summary reaches the model: our structured summary rendered as one text (what the entry's
// `summary` holds), and any compaction entry's `summary`, ours or Pi's, as the user message that
// opens the context. The wording is the model's, so it is English like the rest of the protocol.
import type { UserMessage } from "@pi/core";
import type { CompactionEntry } from "../session/entries.js";
import type { CompactionFiles, CompactionSummary } from "./summary.js";

/** Pi's own wording (its compactionSummary message), so a session continued by either agent sends the same request. */
export const SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const SUMMARY_SUFFIX = "\n</summary>";

function section(title: string, lines: readonly string[]): string {
  return `## ${title}\n${lines.length === 0 ? "- (none)" : lines.map((line) => `- ${line}`).join("\n")}`;
}

function fileList(tag: string, files: readonly string[]): string {
  return files.length === 0 ? "" : `\n\n<${tag}>\n${files.join("\n")}\n</${tag}>`;
}

/** The text of a structured summary, with the files read and modified after it. */
export function renderSummary(summary: CompactionSummary, files: CompactionFiles): string {
  return [
    `## Goal\n${summary.goal}`,
    section("Constraints & Preferences", summary.constraints),
    section("Done", summary.done),
    section("In Progress", summary.inProgress),
    section("Blocked", summary.blocked),
    section("Key Decisions", summary.decisions),
    section("Next Steps", summary.nextSteps),
    section("Critical Context", summary.criticalContext),
  ]
    .join("\n\n")
    .concat(fileList("read-files", files.readFiles), fileList("modified-files", files.modifiedFiles));
}

/** The user message that stands for everything a compaction summarised. */
export function summaryMessage(entry: CompactionEntry): UserMessage {
  return {
    role: "user",
    content: [{ type: "text", text: `${SUMMARY_PREFIX}${entry.summary}${SUMMARY_SUFFIX}` }],
    timestamp: Date.parse(entry.timestamp),
  };
}
