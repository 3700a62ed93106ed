// tiny-pi writes its sessions inside the learner's project, and a session holds the whole
// conversation and tool output. A `.gitignore` of `*` inside `.tiny-pi/` keeps `git add .` from
// committing any of it (the file ignores itself too), whatever the project's own .gitignore says.
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { SessionStore } from "./session-store.js";

const CONTENT = "# Written by tiny-pi: sessions hold the conversation and tool output; keep them out of git.\n*\n";

/** `store`, adding `<workspace>/.tiny-pi/.gitignore` (never replacing one) once a session file is there. */
export function ignoredByGit(store: SessionStore, workspace: string): SessionStore {
  const folder = path.join(workspace, ".tiny-pi");
  let done = false;
  return {
    get file() {
      return store.file;
    },
    append(messages) {
      store.append(messages);
      const file = store.file;
      if (done || file === undefined) return;
      done = true;
      if (path.relative(folder, file).startsWith("..")) return;
      try {
        writeFileSync(path.join(folder, ".gitignore"), CONTENT, { flag: "wx" });
      } catch {
        // EEXIST: the learner's own file stays. Anything else failed the session write first.
      }
    },
    flushed: () => store.flushed(),
    tree: () => store.tree(),
    branch: (id) => store.branch(id),
    path: () => store.path(),
    appendEntry: (entry) => store.appendEntry(entry),
    newId: () => store.newId(),
  };
}
