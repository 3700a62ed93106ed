// What one page shows: a session's entries (file order) with its leaf, and a timeline. tiny-pi's
// `export FILE` and the demo's `--html` each build one; page.ts turns it into the HTML file.
import type { SessionEntry } from "../../session/entries.js";
import type { Timeline } from "./timeline.js";

export interface RunView {
  title: string;
  /** The session file or the scenario's note, shown under the title. */
  subtitle: string;
  entries: SessionEntry[];
  /** The active leaf: the branch shown first, and the one the timeline follows. */
  leafId: string | null;
  timeline: Timeline;
}
