// Checkpoint 06 · 学习脚手架（2 个教学文件的第 1 个）：Tool、ToolOutput、ToolExecutionContext 与 ToolRegistry 的公共表面已经声明；
// Lab 6.1 的三个方法体先抛出“尚未实现”。完成 `// Lab 6.1` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/core
//   node --test --test-name-pattern="登记与定义" packages/pi-core/dist/test/06-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and fields unused until written.
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
    // Lab 6.1 ①：同名工具已经登记时抛出清楚的错误（名字写进 message，说明每个工具要有唯一的名字），
    // 原有工具保持不变；否则按登记顺序存进 this.tools，返回 this，让 register() 可以链式调用。
    throw new Error("Lab 6.1 登记工具并列出定义 尚未实现");
  }

  get(name: string): Tool | undefined {
    // Lab 6.1 ②：按名字找到登记的工具；没有这个名字时返回 undefined，不要抛出。
    throw new Error("Lab 6.1 登记工具并列出定义 尚未实现");
  }

  /** Definitions in registration order, as a model request carries them. */
  definitions(): ToolDefinition[] {
    // Lab 6.1 ③：按登记顺序返回每个工具的 { name, description, parameters }：模型只看到定义，
    // execute 留在本地，不能出现在定义里。
    throw new Error("Lab 6.1 登记工具并列出定义 尚未实现");
  }
}
