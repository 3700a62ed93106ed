// Ctrl-C: the first press aborts the running turn through its AbortSignal (the loop ends
// `aborted` and keeps every message); a second press exits. With no turn running, the first
// press only says how to exit (REPL) or exits at once (a one-shot run still setting up).

/** A press this soon after the previous one is the same press delivered twice: `npm run` forwards the terminal's SIGINT to its child, which has already received it. */
const SAME_PRESS_MS = 150;

export type PressOutcome = "aborted" | "armed" | "exit" | "ignored";

export class Interrupts {
  private controller: AbortController | undefined;
  private armed = false;
  private lastPress = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = Date.now) {}

  /** A new turn starts: its signal, aborted by the next press. */
  beginTurn(): AbortSignal {
    this.controller = new AbortController();
    this.armed = false;
    return this.controller.signal;
  }

  endTurn(): void {
    this.controller = undefined;
  }

  /** Typing a line disarms a pending exit. */
  disarm(): void {
    this.armed = false;
  }

  /** What a Ctrl-C does now; `idleExits`: with no turn running, exit at once. */
  press(idleExits: boolean): PressOutcome {
    const at = this.now();
    const repeated = at - this.lastPress < SAME_PRESS_MS;
    this.lastPress = at;
    if (repeated) return "ignored";
    if (this.armed) return "exit";
    this.armed = true;
    const controller = this.controller;
    if (controller !== undefined && !controller.signal.aborted) {
      controller.abort();
      return "aborted";
    }
    return idleExits ? "exit" : "armed";
  }
}
