// How the Runtime's host asks the person something (trust this extension? allow this call?): the
// terminal's questions (cli/terminal-questions.ts) are one; without a terminal there are none.

export interface Questions {
  /** Shows `question` and resolves with the answer, trimmed; "" when there is none or `signal` aborts. */
  ask(question: string, signal?: AbortSignal): Promise<string>;
}
