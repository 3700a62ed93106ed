// `npm run demo -- --json | head -1`: once the reader has gone, writing to stdout fails with
// EPIPE. Like a Unix tool killed by SIGPIPE, the command then just stops: exit 0, no stack trace.
import { cleanUpNow } from "../cleanup-on-signal.js";

const watched = new WeakSet<NodeJS.WriteStream>();

/** Ends the process quietly (exit 0, after the pending cleanups) when `stream`'s reader has closed it. */
export function stopOnClosedPipe(stream: NodeJS.WriteStream): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    cleanUpNow();
    process.exit(0);
  });
}
