// The JavaScript that runs inside the sandbox before the script: it takes the two host functions
// off the global object, then offers `tools.<name>(args)` and `console.*` built on them. It returns
// `track(promise)`, which the worker calls on the script's promise and which gives back a function
// reading the outcome as one string: "" while pending, "u" (returned undefined), "v" + JSON text
// of the value, or "e" + one line. Only strings leave the sandbox. Everything here is guest code:
// it can only reach what the worker handed in. Once the script's promise has settled, `tools.*`
// throws: jobs still queued behind the return cannot start a nested call. The prelude keeps its own
// copies of JSON.stringify and Promise.prototype.then, so a script that replaces them changes
// nothing for the worker.

/** The host functions' global names while the prelude runs (deleted before the script starts). */
export const HOST_CALL = "__piHostCall";
export const HOST_LOG = "__piHostLog";

export const GUEST_PRELUDE = `(() => {
  const hostCall = globalThis.${HOST_CALL};
  const hostLog = globalThis.${HOST_LOG};
  delete globalThis.${HOST_CALL};
  delete globalThis.${HOST_LOG};
  const stringify = JSON.stringify;
  const StringOf = String;
  const show = (value) => {
    if (typeof value === "string") return value;
    try {
      const json = stringify(value);
      return json === undefined ? StringOf(value) : json;
    } catch {
      return StringOf(value);
    }
  };
  const print = (...values) => hostLog(values.map(show).join(" "));
  globalThis.console = Object.freeze({ log: print, info: print, warn: print, error: print, debug: print });
  let finished = false;
  const call = (name, args) => {
    if (finished) throw new Error("the run has ended: tools." + name + " was not called");
    const json = stringify(args === undefined ? {} : args);
    return hostCall(name, json === undefined ? "null" : json);
  };
  globalThis.tools = new Proxy(Object.freeze({}), {
    get: (_target, name) => (typeof name === "string" ? (args) => call(name, args) : undefined),
  });
  const then = Promise.prototype.then;
  const ErrorType = Error;
  const describe = (error) => {
    try {
      if (error instanceof ErrorType) return StringOf(error.name) + ": " + StringOf(error.message);
      return "Uncaught " + show(error);
    } catch {
      return "Uncaught exception";
    }
  };
  const encode = (value) => {
    if (value === undefined) return "u";
    try {
      return "v" + stringify(value);
    } catch (error) {
      return "e" + "the return value is not JSON: " + describe(error);
    }
  };
  return (promise) => {
    let outcome = "";
    const settle = (text) => {
      finished = true;
      outcome = text;
    };
    then.call(promise, (value) => settle(encode(value)), (error) => settle("e" + describe(error)));
    return () => outcome;
  };
})()`;
