// verify's verdicts for a planted mistake, judged from one focused run of the labs up to the
// mistake's own (verifyTreeAtOnce), instead of one run per lab of the chapter: the first lab not
// done is the same as over all labs (a later lab cannot come first), and a mistake caught early or
// late still fails its test; only the summary's progress count counts fewer labs.
import type { Checkpoint } from "../../lib/course/manifest.js";
import { type Verification, verifyTreeAtOnce } from "../../lib/verify/verify-labs.js";

/** The labs up to and including `id` (all of them when the checkpoint has no such lab). */
function labsUpTo(checkpoint: Checkpoint, id: string): Checkpoint["labs"] {
  const index = checkpoint.labs.findIndex((lab) => lab.id === id);
  return index < 0 ? checkpoint.labs : checkpoint.labs.slice(0, index + 1);
}

/** Verifies the tree `dir` of `checkpoint` over the labs up to `lab`, in one focused run where one run can tell. */
export function verifyUpTo(dir: string, checkpoint: Checkpoint, lab: string): Promise<Verification> {
  return verifyTreeAtOnce(dir, { ...checkpoint, labs: labsUpTo(checkpoint, lab) });
}
