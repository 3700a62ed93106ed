// The two ways tiny-pi stops early, each told in one line that names the fix (never a stack):
// a mistake in how it was called (exit 2), or a run that could not start or did not succeed (exit 1).

/** A bad flag, a missing value, a directory that does not exist: exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A run that could not start or failed (unreachable server, 401, a learner's tree not ready): exit code 1. */
export class RunError extends Error {
  override name = "RunError";
}

export const EXIT_OK = 0;
export const EXIT_FAILED_RUN = 1;
export const EXIT_USAGE = 2;
/** The conventional code of a process stopped by Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;
