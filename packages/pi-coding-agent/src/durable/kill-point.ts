// The chaos test's deterministic crash: TINY_PI_KILL_AT="<point>:<n>" makes this process SIGKILL
// itself the n-th time it reaches <point> (stream: a streamed text delta; intent: an intent is
// committed and execute() has not begun; commit: half of a commit's bytes are written). Unset, as
// in every ordinary run, it costs one comparison; nothing here depends on time.

export type KillPoint = "stream" | "intent" | "commit";

const wanted = parse(process.env.TINY_PI_KILL_AT);
let reached = 0;

function parse(value: string | undefined): { point: KillPoint; n: number } | undefined {
  const match = /^(stream|intent|commit):(\d+)$/.exec(value ?? "");
  if (match === null) return undefined;
  return { point: match[1] as KillPoint, n: Number(match[2]) };
}

/** Whether this is the moment the chaos test chose for `point`. */
export function killHere(point: KillPoint): boolean {
  if (wanted === undefined || wanted.point !== point) return false;
  reached += 1;
  return reached === wanted.n;
}

/** Dies the way a crash does: no handler, no flush, no cleanup. */
export function die(): never {
  process.kill(process.pid, "SIGKILL");
  throw new Error("unreachable: SIGKILL was sent");
}
