// Lab 15.1 · 暴露: every tool has an exposure, and the registry derives from it what the model is
// told about (declared) and what an executor may run (callable). It wraps chapter 06's
// ToolRegistry instead of changing it, so a learner's own registry and executor stay as they are.
import { type Tool, type ToolDefinition, ToolRegistry } from "@pi/core";

/** direct: declared from the start; deferred: declared once activated (tool_search); hidden: never. */
export type Exposure = "direct" | "deferred" | "hidden";

/** The one line a model gets for a call to a tool it was not told about yet. */
export function notDeclaredLine(name: string): string {
  return `Tool "${name}" was not declared to you in this request: find it with tool_search first, then call it in your next step.`;
}

export class ExposedRegistry extends ToolRegistry {
  private readonly exposures = new Map<string, Exposure>();
  /** Each tool's definition, made once: tool_search's index keeps its words by this object. */
  private readonly definitionsByName = new Map<string, ToolDefinition>();
  /** Registration order: declared() and activate() follow it. */
  private readonly order: string[] = [];
  private readonly active = new Set<string>();
  /** The names the last request declared (definitions()); none yet: the declared set itself. */
  private told: Set<string> | undefined;

  override register(tool: Tool, exposure: Exposure = "direct"): this {
    super.register(tool);
    this.exposures.set(tool.name, exposure);
    this.definitionsByName.set(tool.name, Object.freeze(definitionOf(tool)));
    this.order.push(tool.name);
    return this;
  }

  exposureOf(name: string): Exposure | undefined {
    return this.exposures.get(name);
  }

  /** Whether no tool is deferred or hidden: then the transcript carries no tool state at all. */
  allDirect(): boolean {
    return [...this.exposures.values()].every((exposure) => exposure === "direct");
  }

  /** Names the model is told about, in registration order: direct ones, then deferred ones once activated. */
  declared(): string[] {
    return this.order.filter((name) => this.isDeclared(name));
  }

  /**
   * Whether an executor may run `name`: the model answers the last request, so it may call what
   * that request declared. A tool activated since is declared from the next request on.
   */
  callable(name: string): boolean {
    return this.told === undefined ? this.isDeclared(name) : this.told.has(name);
  }

  /** Deferred tools not activated yet, in registration order: what tool_search ranks. */
  deferred(): ToolDefinition[] {
    return this.order
      .filter((name) => this.exposures.get(name) === "deferred" && !this.active.has(name))
      .map((name) => this.definitionsByName.get(name) as ToolDefinition);
  }

  /**
   * Activates the deferred tools among `names` that are not active yet and returns them in
   * registration order (not the order asked). Unknown, direct, hidden and active names are skipped.
   */
  activate(names: Iterable<string>): string[] {
    const wanted = new Set(names);
    const added = this.order.filter(
      (name) => wanted.has(name) && this.exposures.get(name) === "deferred" && !this.active.has(name),
    );
    for (const name of added) this.active.add(name);
    return added;
  }

  /**
   * What a request carries: the declared tools' definitions, in registration order. Asking for
   * them is telling the model: from now on callable() follows this set.
   */
  override definitions(): ToolDefinition[] {
    const declared = this.declared();
    this.told = new Set(declared);
    return declared.map((name) => definitionOf(super.get(name) as Tool));
  }

  /**
   * The scope check, at the moment a call is looked up: a hidden tool is unknown; a deferred one
   * not activated yet is a tool whose every call is refused, so the executor pairs the refusal.
   */
  override get(name: string): Tool | undefined {
    const exposure = this.exposures.get(name);
    if (exposure === undefined || exposure === "hidden") return undefined;
    if (!this.callable(name)) return refusing(name);
    return super.get(name);
  }

  private isDeclared(name: string): boolean {
    const exposure = this.exposures.get(name);
    return exposure === "direct" || (exposure === "deferred" && this.active.has(name));
  }
}

function definitionOf({ name, description, parameters }: Tool): ToolDefinition {
  return { name, description, parameters };
}

function refusing(name: string): Tool {
  return {
    name,
    description: "",
    parameters: { type: "object" },
    execute: async () => {
      throw new Error(notDeclaredLine(name));
    },
  };
}
