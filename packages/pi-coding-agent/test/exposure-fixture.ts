// Test helpers for chapter 15: small tools that record their calls, a registry with each exposure,
// a tool that activates by name (so the exposure labs never depend on tool_search), and a Runtime
// opened on a real session file.
import { type Tool, text } from "@pi/core";
import { ExposedRegistry, type Exposure } from "../src/exposure/registry.js";
import { openRuntime } from "../src/runtime/open.js";
import type { Runtime } from "../src/runtime/types.js";
import type { SessionEntry } from "../src/session/entries.js";
import type { SessionStore } from "../src/session/memory-store.js";
import { partsOf, type scripted } from "./runtime-fixture.js";

/** A tool named `name` that answers `<name> ran` and pushes its name onto `ran`. */
export function namedTool(name: string, description: string, ran: string[] = [], parameters: object = {}): Tool {
  return {
    name,
    description,
    parameters: { type: "object", properties: parameters },
    execute: async () => {
      ran.push(name);
      return { content: [text(`${name} ran`)] };
    },
  };
}

/** `registry` with each [name, exposure] registered in order. */
export function exposed(tools: readonly [string, Exposure][], ran: string[] = []): ExposedRegistry {
  const registry = new ExposedRegistry();
  for (const [name, exposure] of tools) registry.register(namedTool(name, `The ${name} tool.`, ran), exposure);
  return registry;
}

/** `enable({names})`: activates the named tools in `registry` and says which it activated. */
export function enableTool(registry: ExposedRegistry): Tool {
  return {
    name: "enable",
    description: "Activates deferred tools by name.",
    parameters: { type: "object", properties: { names: { type: "array", items: { type: "string" } } } },
    execute: async (args) => {
      const loaded = registry.activate(args.names as string[]);
      return { content: [text(`activated ${loaded.join(", ")}`)] };
    },
  };
}

export function runtimeOn(
  session: SessionStore,
  model: ReturnType<typeof scripted>,
  tools: ExposedRegistry,
  leaf?: string,
): Runtime {
  return openRuntime({ session, model, parts: partsOf(tools), ...(leaf !== undefined ? { leaf } : {}) });
}

/** Each entry as a short line: `message:user`, `custom:+a,b -c`. */
export function shape(entries: readonly SessionEntry[]): string[] {
  return entries.map((entry) => {
    if (entry.type === "message") return `message:${entry.message.role}`;
    if (entry.type === "custom") {
      const added = entry.data.added.map((tool) => tool.name).join(",");
      return `custom:+${added} -${entry.data.removed.join(",")}`;
    }
    return entry.type;
  });
}

/** Names of the tools request `n` of `model` declared. */
export function declaredIn(model: ReturnType<typeof scripted>, n: number): string[] {
  return (model.requests[n]?.tools ?? []).map((tool) => tool.name);
}
