import { stopOnClosedPipe } from "./cli/closed-pipe.js";

/**
 * Something the learner must fix, told in one line that names the fix; the CLIs print the
 * message alone and exit non-zero, with no stack trace.
 */
export class LearnerError extends Error {
  override name = "LearnerError";
}

/** A mistake in what the user asked for (a bad checkpoint id, a directory that is not empty…). */
export class UsageError extends LearnerError {
  override name = "UsageError";
}

/** A run of the learner's code that did not end in time (e.g. a synchronous infinite loop). */
export class RunTimeoutError extends LearnerError {
  override name = "RunTimeoutError";
  /** The test that was running when the run was stopped, when it is known. */
  readonly test: string | undefined;
  constructor(message: string, test?: string) {
    super(message);
    this.test = test;
  }
}

/**
 * Runs a CLI's main: a LearnerError becomes its one-line message on stderr and exit code 1; a
 * reader that closes stdout early (`| head -1`) just ends the output.
 */
export async function runCli(main: () => Promise<void>): Promise<void> {
  stopOnClosedPipe(process.stdout);
  try {
    await main();
  } catch (error) {
    if (!(error instanceof LearnerError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  }
}
