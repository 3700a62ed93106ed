// The workspace scenario's folder: a real temp workspace holding the scenario's files, removed
// after the run, also when the demo is interrupted (Ctrl-C or SIGTERM) while it runs.
import { rmSync } from "node:fs";
import { mkdir, mkdtemp, realpath, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** Makes a temp workspace with `files`, runs `use` on its real path and removes it whatever happens. */
export async function withDemoWorkspace<T>(
  files: Record<string, string>,
  use: (root: string) => Promise<T>,
): Promise<T> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "pi-demo-workspace-")));
  const remove = () => rmSync(root, { recursive: true, force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    for (const each of SIGNALS) process.off(each, onSignal);
    remove();
    // Raised again with no listener left: the demo ends the way the signal would have ended it.
    process.kill(process.pid, signal);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  try {
    for (const [relative, content] of Object.entries(files)) {
      const file = path.join(root, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
    }
    return await use(root);
  } finally {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    remove();
  }
}
