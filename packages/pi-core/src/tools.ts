import type { TextContent } from "./messages.js";
import type { ToolDefinition } from "./model.js";

export interface ToolExecutionContext {
  signal?: AbortSignal;
  reportProgress?: (content: TextContent[]) => void;
}

export interface ToolOutput {
  content: TextContent[];
  details?: unknown;
}

export interface Tool {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: object;
  execute(args: Record<string, unknown>, context: ToolExecutionContext): Promise<ToolOutput>;
}

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  register(tool: Tool): this {
    if (this.tools.has(tool.name)) {
      throw new Error(`ToolRegistry: a tool named "${tool.name}" is already registered; give each tool a unique name`);
    }
    this.tools.set(tool.name, tool);
    return this;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** Definitions in registration order, as a model request carries them. */
  definitions(): ToolDefinition[] {
    return [...this.tools.values()].map(({ name, description, parameters }) => ({ name, description, parameters }));
  }
}
