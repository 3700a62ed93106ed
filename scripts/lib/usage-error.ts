/**
 * A mistake in what the user asked for (a bad checkpoint id, a directory that is not empty…).
 * Its message is one line that names the fix; the CLIs print it alone and exit non-zero.
 */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Runs a CLI's main: a UsageError becomes its one-line message on stderr and exit code 1. */
export async function runCli(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  }
}
