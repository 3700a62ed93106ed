// Questions tiny-pi asks the person at the terminal (trust an extension? allow this call?), and the
// answers. Outside the REPL each question reads one line from its own readline; inside it the REPL
// hands its next typed line here first (`take`), so an answer is never steered into the turn.
import readline from "node:readline";
import type { Questions } from "../host/questions.js";

export interface TerminalQuestions extends Questions {
  /** The REPL's hook: while a question waits, `line` answers it (returns true) instead of being a prompt. */
  take(line: string): boolean;
  /** The REPL reads the terminal from now on; questions wait for `take`. */
  attach(): void;
}

export function terminalQuestions(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): TerminalQuestions {
  let waiting: ((line: string) => void) | undefined;
  let attached = false;
  /** One question at a time: a batch of calls asks them in turn. */
  let busy = Promise.resolve();

  const askOnce = (question: string, signal?: AbortSignal) =>
    new Promise<string>((resolve) => {
      if (signal?.aborted) return resolve("");
      let settled = false;
      /** Closes this question's own readline, once there is one. */
      let close = () => {};
      const done = (line: string) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        waiting = undefined;
        resolve(line.trim());
      };
      const onAbort = () => {
        close();
        done("");
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (attached) {
        output.write(`${question} `);
        waiting = done;
        return;
      }
      const rl = readline.createInterface({ input, output, terminal: true });
      close = () => rl.close();
      // The answer is settled before the close that follows it (a first settle wins).
      rl.once("line", (line) => {
        done(line);
        rl.close();
      });
      rl.once("close", () => done(""));
      // Ctrl-C at a question means what it means elsewhere: no to the question, and tiny-pi's own
      // handler (abort the turn, or exit during setup) hears the Ctrl-C the raw terminal swallowed
      // (emitted, not sent: on Windows a real SIGINT to oneself kills outright).
      rl.once("SIGINT", () => {
        done("");
        rl.close();
        process.emit("SIGINT", "SIGINT");
      });
      rl.setPrompt(`${question} `);
      rl.prompt();
    });

  return {
    ask(question, signal) {
      const answer = busy.then(() => askOnce(question, signal));
      busy = answer.then(
        () => undefined,
        () => undefined,
      );
      return answer;
    },
    take(line) {
      if (waiting === undefined) return false;
      waiting(line);
      return true;
    },
    attach() {
      attached = true;
    },
  };
}
