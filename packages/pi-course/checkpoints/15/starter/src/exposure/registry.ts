// Checkpoint 15 · 学习脚手架：暴露。ExposedRegistry 的字段、register()、exposureOf()、allDirect() 与拒绝用的
// 工具已经写好。Lab 15.1 的几处先抛出“尚未实现”的临时错误。按 ① → ③ 完成 `// Lab 15.1` 注释描述的动作，
// 删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="暴露" packages/pi-coding-agent/dist/test/15-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
import { type Tool, type ToolDefinition, ToolRegistry } from "@pi/core";

/** direct: declared from the start; deferred: declared once activated (tool_search); hidden: never. */
export type Exposure = "direct" | "deferred" | "hidden";

/** The one line a model gets for a call to a tool it was not told about yet. */
export function notDeclaredLine(name: string): string {
  return `Tool "${name}" was not declared to you in this request: find it with tool_search first, then call it in your next step.`;
}

export class ExposedRegistry extends ToolRegistry {
  private readonly exposures = new Map<string, Exposure>();
  /** Registration order: declared() and activate() follow it. */
  private readonly order: string[] = [];
  private readonly active = new Set<string>();
  /** The names the last request declared (definitions()); none yet: the declared set itself. */
  private told: Set<string> | undefined;

  override register(tool: Tool, exposure: Exposure = "direct"): this {
    super.register(tool);
    this.exposures.set(tool.name, exposure);
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
    // Lab 15.1 ①：按 this.order（注册顺序）过滤出 isDeclared() 的名字。
    throw new Error("Lab 15.1 暴露 尚未实现");
  }

  /**
   * Whether an executor may run `name`: the model answers the last request, so it may call what
   * that request declared. A tool activated since is declared from the next request on.
   */
  callable(name: string): boolean {
    // Lab 15.1 ①：还没有请求（this.told 是 undefined）就是 isDeclared(name)；否则是 this.told.has(name)：
    // 模型回答的是上一次请求，它只能调用那次请求声明过的工具。
    throw new Error("Lab 15.1 暴露 尚未实现");
  }

  /** Deferred tools not activated yet, in registration order: what tool_search ranks. */
  deferred(): ToolDefinition[] {
    // Lab 15.1 ①：按注册顺序，exposure 是 deferred 且不在 this.active 里的工具，
    // 每个用 definitionOf(super.get(name) as Tool) 变成定义。
    throw new Error("Lab 15.1 暴露 尚未实现");
  }

  /**
   * Activates the deferred tools among `names` that are not active yet and returns them in
   * registration order (not the order asked). Unknown, direct, hidden and active names are skipped.
   */
  activate(names: Iterable<string>): string[] {
    // Lab 15.1 ②：new Set(names) 之后按 this.order 过滤：在集合里、exposure 是 deferred、还不在 this.active 里；
    // 把它们加进 this.active，返回这个按注册顺序的数组（已激活的不会再返回一次）。
    throw new Error("Lab 15.1 暴露 尚未实现");
  }

  /**
   * What a request carries: the declared tools' definitions, in registration order. Asking for
   * them is telling the model: from now on callable() follows this set.
   */
  override definitions(): ToolDefinition[] {
    // Lab 15.1 ③：declared() 的名字记进 this.told（一个新的 Set），再按顺序映射成 definitionOf(super.get(name) as Tool)。
    throw new Error("Lab 15.1 暴露 尚未实现");
  }

  /**
   * The scope check, at the moment a call is looked up: a hidden tool is unknown; a deferred one
   * not activated yet is a tool whose every call is refused, so the executor pairs the refusal.
   */
  override get(name: string): Tool | undefined {
    // Lab 15.1 ③：没有这个名字或 hidden → undefined（第 06 章的“没有注册”）；不是 callable() → refusing(name)
    // （它的 execute 抛出 notDeclaredLine(name)，执行器把它配成一条错误结果）；否则 super.get(name)。
    throw new Error("Lab 15.1 暴露 尚未实现");
  }

  private isDeclared(name: string): boolean {
    // Lab 15.1 ①：direct，或者 deferred 且在 this.active 里。
    throw new Error("Lab 15.1 暴露 尚未实现");
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
