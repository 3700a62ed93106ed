/** The message of an Error, or String(value) for anything else; never a stack. */
export function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}
