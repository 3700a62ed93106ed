// A full collection between timed runs, so no run pays for the previous one's garbage.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

export function collectGarbage(): void {
  gc();
}
