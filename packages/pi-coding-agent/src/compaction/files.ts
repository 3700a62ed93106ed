// The files a compaction remembers: those of the previous compaction plus those the summarised
// messages read (`read`) or changed (`write`, `edit`). A file that was changed is listed only as
// modified. Sorted, so the same history always gives the same entry.
import { type Message, toolCallsOf } from "@pi/core";
import type { CompactionEntry } from "../session/entries.js";
import type { CompactionFiles } from "./summary.js";

const READS: ReadonlySet<string> = new Set(["read"]);
const WRITES: ReadonlySet<string> = new Set(["write", "edit"]);

export function compactionFiles(previous: CompactionEntry | undefined, dropped: readonly Message[]): CompactionFiles {
  const read = new Set(previous?.details?.readFiles);
  const modified = new Set(previous?.details?.modifiedFiles);
  for (const message of dropped) {
    if (message.role !== "assistant") continue;
    for (const call of toolCallsOf(message)) {
      const file = call.arguments.path;
      if (typeof file !== "string") continue;
      if (READS.has(call.name)) read.add(file);
      if (WRITES.has(call.name)) modified.add(file);
    }
  }
  return {
    readFiles: [...read].filter((file) => !modified.has(file)).sort(),
    modifiedFiles: [...modified].sort(),
  };
}
