// Ctrl-C: the first press aborts the running turn (the loop ends `aborted` and keeps every
// message); a second press exits. With no turn running, the first press only says how to exit
// (REPL) or exits at once (a one-shot run still setting up).

/**
 * Under `npm run`, one Ctrl-C reaches a process as two SIGINTs: the terminal's, and the copy npm
 * forwards to its child. Presses this close together are one. (A REPL reads Ctrl-C as a key in
 * raw mode, where no signal is sent, and counts every press: window 0.)
 */
export const SIGNAL_SAME_PRESS_MS = 150;

export type PressOutcome = "aborted" | "armed" | "exit" | "ignored";

export class Interrupts {
  private abortTurn: (() => void) | undefined;
  private armed = false;
  private lastPress = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly samePressMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A turn starts; the next press calls `abort` (once). */
  beginTurn(abort: () => void): void {
    this.abortTurn = abort;
    this.armed = false;
  }

  endTurn(): void {
    this.abortTurn = undefined;
  }

  /** Typing a line disarms a pending exit. */
  disarm(): void {
    this.armed = false;
  }

  /** What a Ctrl-C does now; `idleExits`: with no turn running, exit at once. */
  press(idleExits: boolean): PressOutcome {
    const at = this.now();
    const repeated = at - this.lastPress < this.samePressMs;
    this.lastPress = at;
    if (repeated) return "ignored";
    if (this.armed) return "exit";
    this.armed = true;
    const abort = this.abortTurn;
    if (abort !== undefined) {
      this.abortTurn = undefined;
      abort();
      return "aborted";
    }
    return idleExits ? "exit" : "armed";
  }
}
