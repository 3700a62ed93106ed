// The bounds of one codemode run. Every number here is a promise docs/security.md makes.

export interface CodeLimits {
  /** Wall-clock deadline of the whole run, nested tool calls included. */
  timeoutMs: number;
  /** Bytes the engine may allocate; past it an allocation fails as "out of memory". */
  memoryBytes: number;
  /** Native stack the engine may use; deep recursion fails as a RangeError before it. */
  stackBytes: number;
  /** Nested tool calls one run may make; the next one ends the run. */
  maxCalls: number;
  /** JSON bytes of one nested call's arguments; a bigger call is refused (the script may catch it). */
  maxArgumentBytes: number;
  /** JSON bytes of all nested calls' arguments together; past it the run ends. */
  maxTotalArgumentBytes: number;
  /**
   * UTF-8 bytes of one nested call's result the script may receive. Every reply is copied into the worker's heap,
   * whose exhaustion kills the whole process: a bigger result fails that call instead (the script may catch it).
   */
  maxReplyBytes: number;
  /** Characters of a nested call's error (and result) kept in its record. */
  maxRecordedText: number;
  /** Characters of console output kept; the rest is cut with a notice. */
  maxOutputChars: number;
  /** console.* calls kept; later ones are dropped with a notice. */
  maxConsoleCalls: number;
}

export const DEFAULT_CODE_LIMITS: Readonly<CodeLimits> = Object.freeze({
  timeoutMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxCalls: 256,
  maxArgumentBytes: 8 * 1024,
  maxTotalArgumentBytes: 32 * 1024,
  maxReplyBytes: 1024 * 1024,
  maxRecordedText: 500,
  maxOutputChars: 100_000,
  maxConsoleCalls: 100_000,
});
