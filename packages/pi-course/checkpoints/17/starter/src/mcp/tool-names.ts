// Checkpoint 17 · 学习脚手架：服务器工具的名字。clean() 已经写好。Lab 17.5 的几处先抛出“尚未实现”的临时错误。按编号完成
// `// Lab 17.5` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="子进程与命名" packages/pi-coding-agent/dist/test/17-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
// Tiny-pi's name for a server's tool: `mcp__<server>__<tool>`, at most 64 characters (what model
// APIs accept), only letters, digits, `_` and `-`. When the name is too long or already taken, it is
// cut and ends in `_` plus 8 hex characters of the SHA-256 of server and tool, so it stays stable.
import { createHash } from "node:crypto";

export const MAX_TOOL_NAME_LENGTH = 64;

export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string> = new Set()): string {
  // Lab 17.5 ②：名字是 `mcp__${clean(server)}__${clean(tool)}`。不超过 MAX_TOOL_NAME_LENGTH、也不在 taken 里 → 就用它。
  //   否则：hash = SHA-256(`${server}\u0000${tool}`) 的十六进制（createHash）；从 start = 0 起取 8 位，
  //   suffix = `_${hash.slice(start, start + 8)}`，名字 = 原名截到 64 − suffix.length 个字符 + suffix；
  //   不在 taken 里就返回它，否则 start + 1 再试（同一个工具每次得到同一个名字，冲突时也不会重名）；
  //   都被占用了 → 抛 Error。
  throw new Error("Lab 17.5 子进程与命名 尚未实现");
}

function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, "_");
}
