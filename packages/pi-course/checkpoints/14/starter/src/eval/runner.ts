// Checkpoint 14 · 学习脚手架：运行器。文件夹、夹具与声明文件的读取在 workspace.ts，计数的模型在
// counting-model.ts，冻结的副本在 frozen-copy.ts；Lab 14.2 的算法先抛出“尚未实现”的临时错误。
// 按编号完成 `// Lab 14.2` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="运行器" packages/pi-coding-agent/dist/test/14-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
import { writeFile } from "node:fs/promises";
import type { Message } from "@pi/core";
import { countingModel } from "./counting-model.js";
import { frozenCopy } from "./frozen-copy.js";
import type {
  AgentRun,
  AgentUnderTest,
  CaseReport,
  EvalTask,
  Observation,
  Outcome,
  Phase,
  RunOptions,
  SecondaryOutcome,
} from "./types.js";
import { judgeRun } from "./verdict.js";
import { makeRunFolder, type RunFolder, readDeclared, removeRunFolder, writeFiles } from "./workspace.js";

export async function runCase(task: EvalTask, agent: AgentUnderTest, options: RunOptions = {}): Promise<CaseReport> {
  // Lab 14.2 ①：prepare：makeRunFolder(options.tempDir)，writeFiles() 写夹具（和 task.outside，写在 root 下），
  // 有 task.agent?.session（一个函数 (workspace) => string）就把 task.agent.session(folder.workspace) 返回的 JSONL
  // 写进 sessionFile；countingModel(task.model()) 包住一个新模型；agent(...) 打开运行。
  // 这里任何一步抛错，主结果就是 { verdict: "error", phase: "prepare" }（不留消息）。
  // Lab 14.2 ②：execute：按顺序 run.prompt() 每个提示（用 options.now 计时：prepare 之后开始，collect 之前停下，ms 只量 execute）；抛错是 "execute"，
  // 之后的提示不再发（一个 try 包住整个循环）。没有失败才
  // collect：run.activePath() 与 readDeclared()，用 frozenCopy() 做成 judge 看到的 Observation；抛错是 "collect"。
  // Lab 14.2 ③：无论前面怎样：打开过就 run.dispose()，建过文件夹就 (options.removeFolder ?? removeRunFolder)()；
  // 各自的失败按顺序追加进 secondary，不改主结果。
  // Lab 14.2 ④：主结果还没定时，judgeRun(observation, task.judge)；报告是任务名、主结果、secondary 与计数。
  throw new Error("Lab 14.2 运行器 尚未实现");
}
