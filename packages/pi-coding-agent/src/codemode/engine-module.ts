// The engine's WebAssembly module, read from inside the quickjs-wasi package (never downloaded) and
// compiled once per process; every run instantiates a fresh VM from it in its own worker.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/** A compiled WebAssembly.Module (the course's TypeScript setup has no WebAssembly types). */
export type EngineModule = object;

const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object } };

let compiled: Promise<EngineModule> | undefined;

export function engineModule(): Promise<EngineModule> {
  compiled ??= readFile(createRequire(import.meta.url).resolve("quickjs-wasi/quickjs.wasm")).then(
    (bytes) => new wasm.Module(bytes),
  );
  return compiled;
}
