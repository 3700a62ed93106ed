// Lab 16.1 · 一次运行: One script in one fresh VM, inside the worker: evaluate it, then drive its promise. After every
// reply from the host the engine's pending jobs are drained (without that, the script never sees
// the reply); when its promise is still pending and no nested call is in flight, nothing can ever
// settle it: the run fails at once as stalled instead of waiting for the deadline.
import type { JSValueHandle, QuickJS } from "quickjs-wasi";
import { GUEST_PRELUDE, HOST_CALL, HOST_LOG } from "./guest-prelude.js";
import type { ReplyMessage } from "./protocol.js";

/** How the worker talks to the host: nested calls out, their replies in. */
export interface HostLink {
  call(seq: number, name: string, args: string): void;
  nextReply(): Promise<ReplyMessage>;
}

export interface OutputLimits {
  maxOutputChars: number;
  maxConsoleCalls: number;
}

export type ScriptOutcome =
  | { ok: true; value?: string; output: string }
  | { ok: false; error: string; failure: "error" | "stalled" | "memory"; output: string };

export async function runScript(
  vm: QuickJS,
  code: string,
  host: HostLink,
  limits: OutputLimits,
): Promise<ScriptOutcome> {
  const output = new OutputBuffer(limits);
  const inFlight = new Map<number, ReturnType<QuickJS["newPromise"]>>();
  let seq = 0;
  vm.global.setProp(
    HOST_CALL,
    vm.newFunction(HOST_CALL, (name, args) => {
      const deferred = vm.newPromise();
      deferred.settled.catch(() => {});
      seq += 1;
      inFlight.set(seq, deferred);
      host.call(seq, stringOf(vm, name), stringOf(vm, args));
      return deferred.handle;
    }),
  );
  vm.global.setProp(
    HOST_LOG,
    vm.newFunction(HOST_LOG, (text) => {
      output.add(stringOf(vm, text));
      return vm.undefined;
    }),
  );
  const track = vm.evalCode(GUEST_PRELUDE, "prelude.js");
  const fail = (error: unknown): ScriptOutcome => failureOf(error, output.text());
  let outcome: JSValueHandle;
  try {
    const promise = vm.evalCode(`(async () => {\n${code}\n})()`, "script.js");
    outcome = vm.callFunction(track, vm.undefined, promise);
  } catch (error) {
    return fail(error);
  }
  try {
    for (;;) {
      vm.executePendingJobs();
      const read = stringOf(vm, vm.callFunction(outcome, vm.undefined));
      if (read === "u") return { ok: true, output: output.text() };
      if (read.startsWith("v")) return { ok: true, value: read.slice(1), output: output.text() };
      if (read.startsWith("e"))
        return { ok: false, error: oneLine(read.slice(1)), failure: "error", output: output.text() };
      if (inFlight.size === 0) {
        return {
          ok: false,
          error: "script stalled: it awaits a promise that nothing can settle (no tool call is pending)",
          failure: "stalled",
          output: output.text(),
        };
      }
      const reply = await host.nextReply();
      const deferred = inFlight.get(reply.seq);
      if (deferred === undefined) continue;
      inFlight.delete(reply.seq);
      if (reply.ok) deferred.resolve(vm.newString(reply.text));
      else deferred.reject(vm.newError(reply.text));
    }
  } catch (error) {
    return fail(error);
  }
}

/** A thrown value (guest exception or the engine's own interrupt / out-of-memory) as one line. */
function failureOf(error: unknown, output: string): ScriptOutcome {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const failure = /out of memory/i.test(message) ? "memory" : "error";
  if (failure === "memory")
    return { ok: false, error: "out of memory: the script allocated more than its memory limit", failure, output };
  return { ok: false, error: oneLine(message), failure, output };
}

function stringOf(vm: QuickJS, handle: JSValueHandle): string {
  return handle.typeof === "string" ? String(vm.dump(handle)) : "";
}

function oneLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0] ?? "";
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

/** console output with two caps: characters kept and calls counted, each cut with one notice. */
class OutputBuffer {
  private readonly parts: string[] = [];
  private chars = 0;
  private calls = 0;
  private cut = false;

  constructor(private readonly limits: OutputLimits) {}

  add(line: string): void {
    if (this.cut) return;
    this.calls += 1;
    if (this.calls > this.limits.maxConsoleCalls) {
      this.parts.push(`[output cut: more than ${this.limits.maxConsoleCalls} console calls]`);
      this.cut = true;
      return;
    }
    const room = this.limits.maxOutputChars - this.chars;
    if (line.length + 1 > room) {
      this.parts.push(`${line.slice(0, Math.max(0, room))}\n[output cut at ${this.limits.maxOutputChars} characters]`);
      this.cut = true;
      return;
    }
    this.parts.push(line);
    this.chars += line.length + 1;
  }

  text(): string {
    return this.parts.join("\n");
  }
}
