// tiny-pi writes its sessions inside the learner's project, and a session holds the whole
// conversation and tool output. A `.gitignore` of `*` inside `.tiny-pi/` keeps `git add .` from
// committing any of it (the file ignores itself too), whatever the project's own .gitignore says.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { withAppend } from "./redacting.js";
import type { HostSession } from "./session-store.js";

const CONTENT = "# Written by tiny-pi: sessions hold the conversation and tool output; keep them out of git.\n*\n";

/** `session`, adding `<workspace>/.tiny-pi/.gitignore` (never replacing one) once a session file is there. */
export function ignoredByGit(session: HostSession, workspace: string): HostSession {
  const folder = path.join(workspace, ".tiny-pi");
  let done = false;
  const { store } = session;
  const append = async (entry: Parameters<typeof store.append>[0]) => {
    await store.append(entry);
    const file = session.file();
    if (done || file === undefined) return;
    done = true;
    if (path.relative(folder, file).startsWith("..")) return;
    try {
      writeFileSync(path.join(folder, ".gitignore"), CONTENT, { flag: "wx" });
    } catch {
      // EEXIST: the learner's own file stays.
    }
  };
  return { ...session, store: withAppend(store, append), file: () => session.file() };
}
