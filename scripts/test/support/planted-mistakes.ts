// Mistakes a learner makes in chapters 00–07 and 09–19, planted in the teaching files (the target's,
// or a lab stage's: the starter with the labs up to one filled in), each with the lab whose
// focused tests must go red first and what verify must say about it: the broken rule and the fix.
// The first ones of 06, 07 and 09 are the walk's (issue 21), those of 00–04 the walk's of issue 28,
// chapter 13's after its first three the chapter-13 walk's, those of 05 and the second of 02 the walk
// of chapters 00–06 (walk00), chapter 14's the chapter-14 walk's (walk14), the block after them the
// fresh-learner walks of 10–14 (issue 34), those marked so the fresh-learner walks of 00–05 and 10–14
// after issue 34's fixes (walks A–M), those marked so the fresh-learner walks after walks A–M (walks N–W),
// chapter 15's its author's and the chapter-15 walk's, chapter 16's its author's, the chapter-16 walk's
// and the fixes after it, chapter 17's its author's and the chapter-17 walk's, chapter 18's its
// author's and the chapter-18 walk's, chapter 19's its author's and the chapter-19 walk's (walk19); the others are the
// course's own.
import type { Mutation } from "../../lib/mutation/mutants.js";

export interface PlantedMistake {
  checkpoint: string;
  name: string;
  /** The lab whose tests go red first. */
  lab: string;
  /** Planted into the teaching files with the labs up to this one done; by default every lab (the target's files). */
  stage?: string;
  mutations: Mutation[];
  /** What verify's summary must say. */
  says: RegExp;
}

const executeToolCall = "packages/pi-core/src/execute-tool-call.ts";
const agentLoop = "packages/pi-course/src/agent-loop.ts";
const agent = "packages/pi-course/src/agent.ts";
const tools = "packages/pi-core/src/tools.ts";
const openRuntime = "packages/pi-coding-agent/src/runtime/open.ts";
const contextAdapter = "packages/pi-coding-agent/src/runtime/context-adapter.ts";
const runtime = "packages/pi-coding-agent/src/runtime/runtime.ts";
const modes = "packages/pi-coding-agent/src/modes/modes.ts";
const chunkMapper = "packages/pi-ai/src/openai-compatible/chunk-mapper.ts";
const redact = "packages/pi-ai/src/openai-compatible/redact.ts";
const verdict = "packages/pi-coding-agent/src/eval/verdict.ts";
const runner = "packages/pi-coding-agent/src/eval/runner.ts";
const suite = "packages/pi-coding-agent/src/eval/suite.ts";
const requestMessages = "packages/pi-ai/src/openai-compatible/request-messages.ts";
const chunkShape = "packages/pi-ai/src/openai-compatible/chunk-shape.ts";
const assembler = "packages/pi-ai/src/openai-compatible/tool-call-assembler.ts";
const scriptedModel = "packages/pi-core/src/scripted-model.ts";
const modelStream = "packages/pi-core/src/model-stream.ts";
const finishReason = "packages/pi-ai/src/openai-compatible/finish-reason.ts";
const budget = "packages/pi-coding-agent/src/compaction/budget.ts";
const createEntry = "packages/pi-coding-agent/src/compaction/create-entry.ts";
const jsonlStore = "packages/pi-coding-agent/src/session/jsonl-store.ts";
const sessionTree = "packages/pi-coding-agent/src/session/session-tree.ts";
const resourceContext = "packages/pi-coding-agent/src/resources/context.ts";
const resourceRootsFile = "packages/pi-coding-agent/src/resources/roots.ts";
const exposedRegistry = "packages/pi-coding-agent/src/exposure/registry.ts";
const toolState = "packages/pi-coding-agent/src/exposure/tool-state.ts";
const exposureTranscript = "packages/pi-coding-agent/src/exposure/transcript.ts";
const toolSearch = "packages/pi-coding-agent/src/exposure/tool-search.ts";
const jsonrpcMessage = "packages/pi-coding-agent/src/mcp/jsonrpc-message.ts";
const ndjsonReader = "packages/pi-coding-agent/src/mcp/ndjson-reader.ts";
const mcpConnection = "packages/pi-coding-agent/src/mcp/connection.ts";
const mcpLifecycle = "packages/pi-coding-agent/src/mcp/lifecycle.ts";
const mcpListTools = "packages/pi-coding-agent/src/mcp/list-tools.ts";
const mcpCallTool = "packages/pi-coding-agent/src/mcp/call-tool.ts";
const stdioTransport = "packages/pi-coding-agent/src/mcp/stdio-transport.ts";
const mcpToolNames = "packages/pi-coding-agent/src/mcp/tool-names.ts";
const modelCatalogue = "packages/pi-coding-agent/src/models/catalogue.ts";
const modelRouting = "packages/pi-coding-agent/src/models/routing.ts";
const branchState = "packages/pi-coding-agent/src/models/branch-state.ts";
const runScript = "packages/pi-coding-agent/src/codemode/run-script.ts";
const nestedCalls = "packages/pi-coding-agent/src/codemode/nested-calls.ts";
const sandbox = "packages/pi-coding-agent/src/codemode/sandbox.ts";
const codeTool = "packages/pi-coding-agent/src/codemode/code-tool.ts";
const parseEntryFile = "packages/pi-coding-agent/src/session/parse-entry.ts";
const sessionContext = "packages/pi-coding-agent/src/session/session-context.ts";
const compactionSummary = "packages/pi-coding-agent/src/compaction/summary.ts";
const compactionContext = "packages/pi-coding-agent/src/compaction/context.ts";
const compactionInteractions = "packages/pi-coding-agent/src/compaction/interactions.ts";
const skills = "packages/pi-coding-agent/src/resources/skills.ts";
const templates = "packages/pi-coding-agent/src/resources/templates.ts";
const loadExtensionsFile = "packages/pi-coding-agent/src/extensions/load.ts";
const jsonlRecoveryFile = "packages/pi-coding-agent/src/session/jsonl-recovery.ts";
const resourceCatalogue = "packages/pi-coding-agent/src/resources/catalogue.ts";
const toolHooks = "packages/pi-coding-agent/src/extensions/hooks.ts";
const modelEventCheck = "packages/pi-core/src/model-event-check.ts";
const commitLog = "packages/pi-coding-agent/src/durable/commit-log.ts";
const durableTasks = "packages/pi-coding-agent/src/durable/tasks.ts";
const runtimeSteps = "packages/pi-coding-agent/src/durable/runtime-steps.ts";
const durableRecovery = "packages/pi-coding-agent/src/durable/recovery.ts";
const partialOutput = "packages/pi-coding-agent/src/durable/partial-output.ts";

export const plantedMistakes: PlantedMistake[] = [
  {
    checkpoint: "00",
    name: "结果按位置配对，不看 toolCallId",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: "      open = open.filter((call) => call.id !== message.toolCallId);",
        replace: "      open.shift();",
      },
    ],
    says: /toolCallId 对不上的结果不配对任何调用/,
  },
  {
    checkpoint: "01",
    name: "typeof 为 object 就当作普通对象，数组也过了边界",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: '  return typeof value === "object" && value !== null && !Array.isArray(value);',
        replace: '  return typeof value === "object" && value !== null;',
      },
    ],
    says: /\["start"\] 应当被拒绝，原因是 expected an object/,
  },
  {
    checkpoint: "02",
    name: "next() 先看 closed，再看队列：end 之前排队的事件丢了",
    lab: "2.1",
    mutations: [
      {
        file: "packages/pi-core/src/model-stream.ts",
        find: "    if (this.readIndex < this.buffered.length) {",
        replace:
          "    if (this.closed && this.failure === undefined) return Promise.resolve({ value: undefined, done: true });\n    if (this.readIndex < this.buffered.length) {",
      },
    ],
    says: /先到的事件一个不少、一个不多，顺序不变/,
  },
  {
    checkpoint: "03",
    name: "assistantMessage() 写出 errorMessage: undefined",
    lab: "3.1",
    mutations: [
      {
        file: "packages/pi-core/src/messages.ts",
        find: '  return { role: "assistant", content, stopReason, timestamp };',
        replace: '  return { role: "assistant", content, stopReason, timestamp, errorMessage: undefined };',
      },
    ],
    says: /没有别的字段/,
  },
  {
    checkpoint: "04",
    name: "快照记下请求本身，不是它的副本",
    lab: "4.1",
    mutations: [
      {
        file: "packages/pi-core/src/scripted-model.ts",
        find: "    this.requests.push(structuredClone(request));",
        replace: "    this.requests.push(request);",
      },
    ],
    says: /快照是请求当时的样子：之后改请求不影响它/,
  },
  {
    checkpoint: "04",
    name: "toolcall_end 交出回合里的调用本身（walk00）",
    lab: "4.1",
    mutations: [
      {
        file: "packages/pi-core/src/scripted-model.ts",
        find: '    stream.push({ type: "toolcall_end", toolCall: structuredClone(call) });',
        replace: '    stream.push({ type: "toolcall_end", toolCall: call });',
      },
    ],
    says: /toolcall_end 里的调用也是副本/,
  },
  {
    checkpoint: "04",
    name: "脚本耗尽时仍然抛出，不走 error 终态",
    lab: "4.3",
    mutations: [
      {
        file: "packages/pi-core/src/scripted-model.ts",
        find: '      return playTurn({\n        ...assistantMessage([], "error"),\n        errorMessage: `',
        replace: "      throw new Error(\n        `",
      },
      {
        file: "packages/pi-core/src/scripted-model.ts",
        find: "add a turn or expect fewer requests`,\n      });",
        replace: "add a turn or expect fewer requests`,\n      );",
      },
    ],
    says: /stream\(\) 不抛出：脚本耗尽也走协议的终态/,
  },
  {
    checkpoint: "04",
    name: "预取消的请求也消耗了一个回合",
    lab: "4.4",
    mutations: [
      {
        file: "packages/pi-core/src/scripted-model.ts",
        find: '      return playTurn(assistantMessage([], "aborted"));',
        replace: '      this.played += 1;\n      return playTurn(assistantMessage([], "aborted"));',
      },
    ],
    says: /回合没有被消耗：下一次请求仍播放脚本的第一个回合/,
  },
  {
    checkpoint: "06",
    name: "tool.execute() 前漏了 await",
    lab: "6.4",
    stage: "6.4",
    mutations: [
      {
        file: executeToolCall,
        find: "output = await tool.execute(call.arguments, context);",
        replace: "output = tool.execute(call.arguments, context);",
      },
    ],
    says: /走进了 Lab 6\.5[^\n]*漏了 await/,
  },
  {
    checkpoint: "06",
    name: "把 context 复制一份再交给工具",
    lab: "6.4",
    mutations: [
      {
        file: executeToolCall,
        find: "output = await tool.execute(call.arguments, context);",
        replace: "output = await tool.execute(call.arguments, { ...context });",
      },
    ],
    says: /同一个 context 对象：不复制、不包装/,
  },
  {
    checkpoint: "06",
    name: '用 "details" in output 决定写不写 details',
    lab: "6.4",
    mutations: [
      {
        file: executeToolCall,
        find: "if (output.details !== undefined) result.details = output.details;",
        replace: 'if ("details" in output) result.details = output.details;',
      },
    ],
    says: /details 是 undefined 也算没有 details/,
  },
  {
    checkpoint: "07",
    name: "单工具往返之后漏了 continue",
    lab: "7.2",
    stage: "7.2",
    mutations: [{ file: agentLoop, find: "      continue;\n", replace: "" }],
    says: /执行后继续循环：工具结果追加之后 continue/,
  },
  {
    checkpoint: "07",
    name: "failedExecution 用 String(error)，留下了 “Error: ”",
    lab: "7.4",
    mutations: [
      {
        file: agentLoop,
        find: "errorMessageOf(error)}`)],",
        replace: "String(error)}`)],",
      },
    ],
    says: /只留 error\.message[\s\S]*\+ 'Tool execution failed: Error: disk offline'/,
  },
  {
    checkpoint: "09",
    name: "订阅数组原地 push 与 splice",
    lab: "9.1",
    mutations: [
      {
        file: agent,
        find: "    this.subscriptions = [...this.subscriptions, subscription];\n",
        replace: "    this.subscriptions.push(subscription);\n",
      },
      {
        file: agent,
        find: "      this.subscriptions = this.subscriptions.filter((entry) => entry !== subscription);\n",
        replace:
          "      const index = this.subscriptions.indexOf(subscription);\n      if (index !== -1) this.subscriptions.splice(index, 1);\n",
      },
    ],
    says: /订阅数组只整体替换，不原地 push\/splice/,
  },
  {
    checkpoint: "09",
    name: "isRunning 仍为 true 时发出 agent_end",
    lab: "9.2",
    mutations: [
      {
        file: agent,
        find: '    this.active = undefined;\n    this.lastResult = result;\n    this.emit({ type: "agent_end", result });\n',
        replace:
          '    this.lastResult = result;\n    this.emit({ type: "agent_end", result });\n    this.active = undefined;\n',
      },
    ],
    says: /先清掉 active、记下 lastResult，再发出 agent_end/,
  },
  {
    checkpoint: "09",
    name: "abort 时 wait() 不撤掉计时器",
    lab: "9.4",
    mutations: [{ file: agent, find: "      clearTimeout(timer);\n", replace: "" }],
    says: /clearTimeout 撤掉 wait\(\) 的计时器/,
  },
  {
    checkpoint: "09",
    name: "取走的 steer 放回队列末尾",
    lab: "9.5",
    mutations: [
      {
        file: agent,
        find: "this.steering = [...taken, ...this.steering];",
        replace: "this.steering = [...this.steering, ...taken];",
      },
    ],
    says: /回到队列最前面/,
  },
  {
    checkpoint: "09",
    name: "每次 loop 都给满 maxSteps",
    lab: "9.3",
    mutations: [
      {
        file: agent,
        find: "const result = await this.runLoop(signal, this.maxSteps - steps);",
        replace: "const result = await this.runLoop(signal, this.maxSteps);",
      },
      {
        file: agent,
        find: '      if (steps >= this.maxSteps) return { reason: "maxSteps", messages: this.messages, steps };\n',
        replace: "",
      },
    ],
    says: /maxSteps 计整次运行的模型请求/,
  },
  {
    checkpoint: "09",
    name: "stop 之后不查取消就取 followUp",
    lab: "9.3",
    mutations: [
      {
        file: agent,
        find: '      if (signal.aborted) return { reason: "aborted", messages: this.messages, steps };\n',
        replace: "",
      },
    ],
    says: /先查取消，再碰队列/,
  },
  {
    checkpoint: "09",
    name: "成功的请求之后不重置连续失败次数",
    lab: "9.4",
    mutations: [
      { file: agent, find: "attempt = result.steps > 1 ? 1 : attempt + 1;", replace: "attempt = attempt + 1;" },
    ],
    says: /连续失败的计数从头开始/,
  },
  {
    checkpoint: "09",
    name: "计时器先到时不撤掉 abort 监听",
    lab: "9.4",
    mutations: [{ file: agent, find: '      signal.removeEventListener("abort", onAbort);\n', replace: "" }],
    says: /撤掉它的 abort 监听/,
  },
  // The walk of chapters 00–06 (walk00): mistakes that passed verify silently there.
  {
    checkpoint: "02",
    name: "push() 把事件交给最晚的等待者（pop 而不是 shift）",
    lab: "2.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-stream.ts",
        find: "    const waiter = this.waiters.shift();",
        replace: "    const waiter = this.waiters.pop();",
      },
    ],
    says: /两个 next\(\) 同时等待：push 先交给最早的那个/,
  },
  {
    checkpoint: "05",
    name: "finish_reason 一到就发 done，流读完后又发一个",
    lab: "5.4",
    mutations: [
      {
        file: chunkMapper,
        find: "      this.finishReason = choice.finish_reason;\n",
        replace:
          '      this.finishReason = choice.finish_reason;\n      this.emit({ type: "done", reason: "stop" });\n',
      },
    ],
    says: /一轮恰好一个终态（done 或 error），这一轮有 2 个/,
  },
  {
    checkpoint: "05",
    name: "恰好 4 个字符的密钥也被当成占位符（> 而不是 >=）",
    lab: "5.2",
    mutations: [
      {
        file: redact,
        find: "secret.length >= MIN_SECRET_LENGTH",
        replace: "secret.length > MIN_SECRET_LENGTH",
      },
    ],
    says: /恰好 4 个字符的密钥也换掉/,
  },
  {
    checkpoint: "05",
    name: "密钥从短到长替换，长密钥留下后半截",
    lab: "5.2",
    mutations: [
      { file: redact, find: ".sort((a, b) => b.length - a.length)", replace: ".sort((a, b) => a.length - b.length)" },
    ],
    says: /从长到短替换/,
  },
  {
    checkpoint: "05",
    name: "delta: null 被当成坏形状",
    lab: "5.3",
    mutations: [
      {
        file: "packages/pi-ai/src/openai-compatible/chunk-shape.ts",
        find: "    if (delta === undefined || delta === null) continue;",
        replace: "    if (delta === undefined) continue;",
      },
    ],
    says: /服务器常发的 null 仍然接受/,
  },
  {
    checkpoint: "05",
    name: "后面的片段带来的 id 与 name 覆盖了第一个",
    lab: "5.5",
    mutations: [
      {
        file: "packages/pi-ai/src/openai-compatible/tool-call-assembler.ts",
        find: '    if (call.id === "" && fragment.id) call.id = fragment.id;',
        replace: "    if (fragment.id) call.id = fragment.id;",
      },
      {
        file: "packages/pi-ai/src/openai-compatible/tool-call-assembler.ts",
        find: '    if (call.name === "" && fn?.name) call.name = fn.name;',
        replace: "    if (fn?.name) call.name = fn.name;",
      },
    ],
    says: /第一个算数/,
  },
  // Walk 21 (a fresh learner walk): mistakes that scored below 4 there.
  {
    checkpoint: "06",
    name: "重名登记悄悄覆盖原有工具",
    lab: "6.1",
    mutations: [
      {
        file: tools,
        find: "    if (this.tools.has(tool.name)) {\n",
        replace: "    if (this.tools.size < 0) {\n",
      },
    ],
    says: /重名登记是清楚的错误：register\(\) 先查重名/,
  },
  {
    checkpoint: "06",
    name: "未知工具的文字写成 Unknown tool.",
    lab: "6.2",
    mutations: [
      {
        file: executeToolCall,
        // The template placeholder of execute-tool-call.ts, as text.
        find: 'return toolErrorResult(call, `Tool "$' + '{call.name}" is not registered.`);',
        replace: 'return toolErrorResult(call, "Unknown tool.");',
      },
    ],
    says: /应当匹配 \/\^Tool "ghost" is not registered\\\.\$\/\n\s+实际值："Unknown tool\."/,
  },
  {
    checkpoint: "07",
    name: "整批结束后才发出全部 tool_end",
    lab: "7.4",
    mutations: [
      {
        file: agentLoop,
        find: '            const result = await executeOne(call);\n            emit(options, { type: "tool_end", result });\n            return result;\n',
        replace: "            return await executeOne(call);\n",
      },
      {
        file: agentLoop,
        find: "      messages.push(...results);\n",
        replace:
          '      for (const result of results) if (!result.isError) emit(options, { type: "tool_end", result });\n      messages.push(...results);\n',
      },
    ],
    says: /每个调用完成时立即发出自己的 tool_end（反映完成顺序）/,
  },
  {
    checkpoint: "07",
    name: "try 里 return 了没有 await 的 Promise",
    lab: "7.4",
    mutations: [
      {
        file: agentLoop,
        find: '            const result = await executeOne(call);\n            emit(options, { type: "tool_end", result });\n            return result;\n',
        replace:
          '            return executeOne(call).then((result) => {\n              emit(options, { type: "tool_end", result });\n              return result;\n            });\n',
      },
    ],
    says: /只接得住 try 里 await 过的 rejection/,
  },
  {
    checkpoint: "07",
    name: "循环条件写成 steps < maxSteps",
    lab: "7.5",
    mutations: [
      {
        file: agentLoop,
        find: "for (let steps = 1; steps <= maxSteps; steps += 1)",
        replace: "for (let steps = 1; steps < maxSteps; steps += 1)",
      },
    ],
    says: /循环条件是 steps <= maxSteps/,
  },
  {
    checkpoint: "09",
    name: "被拒的 prompt 先进了 transcript",
    lab: "9.2",
    mutations: [
      {
        file: agent,
        find: "    if (this.active) throw new Error(PROMPT_WHILE_RUNNING);\n",
        replace:
          "    if (this.active) {\n      this.messages = [...this.messages, toUserMessage(input)];\n      throw new Error(PROMPT_WHILE_RUNNING);\n    }\n",
      },
    ],
    says: /被拒的 prompt 不进入 transcript：运行守卫在追加 user message 之前拒绝/,
  },
  {
    checkpoint: "09",
    name: "takeSteering 一次只交出一条 steer",
    lab: "9.3",
    mutations: [
      {
        file: agent,
        find: "      const delivered = this.steering;\n      this.steering = [];\n",
        replace: "      const delivered = this.steering.slice(0, 1);\n      this.steering = this.steering.slice(1);\n",
      },
    ],
    says: /按排队顺序：takeSteering 交出整个 steer 队列/,
  },
  {
    checkpoint: "13",
    name: "没给 leaf 就从会话的最后一个条目继续",
    lab: "13.1",
    mutations: [
      {
        file: openRuntime,
        find: "  if (leaf === undefined) {\n    throw new RuntimeError(",
        replace: "  leaf ??= session.leafId() ?? undefined;\n  if (leaf === undefined) {\n    throw new RuntimeError(",
      },
    ],
    says: /非空会话不指定 leaf：一行 RuntimeError，不猜最后一个条目/,
  },
  {
    checkpoint: "13",
    name: "活动路径直接交出 Runtime 自己的条目",
    lab: "13.2",
    mutations: [
      {
        file: contextAdapter,
        find: "  return structuredClone([...source.persisted(), ...source.queued()]);",
        replace: "  return [...source.persisted(), ...source.queued()];",
      },
    ],
    says: /活动路径是深拷贝：改它的条目碰不到 Runtime 自己的/,
  },
  {
    checkpoint: "13",
    name: "每个条目一来就写，不等前一个写完",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "    writes = writes.then(async () => {",
        replace: "    const write = (async () => {",
      },
      {
        file: runtime,
        find: "          { cause: error },\n        );\n      }\n    });",
        replace:
          "          { cause: error },\n        );\n      }\n    })();\n    writes = Promise.all([writes, write]).then(() => undefined);",
      },
    ],
    says: /条目一次写一个/,
  },
  {
    checkpoint: "13",
    name: "innerStream 丢了系统提示",
    lab: "13.2",
    mutations: [
      {
        file: contextAdapter,
        find: "  if (request.systemPrompt !== undefined) sent.systemPrompt = request.systemPrompt;\n",
        replace: "",
      },
    ],
    says: /系统提示原样传过去：innerStream 发出的请求带着 request\.systemPrompt/,
  },
  {
    checkpoint: "13",
    name: "append 不让 leaf 前进：新条目都成了恢复的叶子的兄弟",
    lab: "13.3",
    mutations: [{ file: runtime, find: "    leaf = entry.id;\n", replace: "" }],
    says: /新后缀是一条链：每个条目接在前一个下面/,
  },
  {
    checkpoint: "13",
    name: "条目直接存 Agent 的消息对象，不存 JSON 副本",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "append(messageEntry(JSON.parse(JSON.stringify(message)) as Message, leaf, newId()));",
        replace: "append(messageEntry(message, leaf, newId()));",
      },
    ],
    says: /条目存的是消息的 JSON 副本/,
  },
  {
    checkpoint: "13",
    name: "写入失败时 writes 链自己 reject",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "          { cause: error },\n        );\n      }\n    });",
        replace: "          { cause: error },\n        );\n        throw poison;\n      }\n    });",
      },
    ],
    says: /链上的 Promise 自己不能 reject/,
  },
  {
    checkpoint: "13",
    name: "毒化之后每次拒绝都是同样文字的新错误",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "    if (poison !== undefined) return poison;",
        replace: "    if (poison !== undefined) return new RuntimeError(poison.message);",
      },
    ],
    says: /被毒化之后每个提示都以同一个错误对象拒绝/,
  },
  {
    checkpoint: "13",
    name: "run() 没有 finally：失败的提示之后补丁还在",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "    let result: AgentRunResult;\n    try {\n      result = await engine.prompt(message);\n      recordUpTo(result.messages);\n    } finally {\n      setSystemPrompt(base);\n      await writes;\n    }\n",
        replace:
          "    const result = await engine.prompt(message);\n    recordUpTo(result.messages);\n    setSystemPrompt(base);\n    await writes;\n",
      },
    ],
    says: /提示结束（成也好败也好）基础提示恢复/,
  },
  {
    checkpoint: "13",
    name: "dispose() 不等正在运行的提示",
    lab: "13.3",
    mutations: [{ file: runtime, find: "      await running?.catch(() => undefined);\n", replace: "" }],
    says: /dispose\(\) 等正在运行的提示结束/,
  },
  {
    checkpoint: "13",
    name: "print 模式接住 prompt 的拒绝，跳到下一个输入",
    lab: "13.4",
    mutations: [
      {
        file: modes,
        find: "  for (const prompt of io.prompts ?? []) {\n    last = await runtime.prompt(prompt);\n    writeFinal(io, last);",
        replace:
          "  for (const prompt of io.prompts ?? []) {\n    try {\n      last = await runtime.prompt(prompt);\n    } catch {\n      continue;\n    }\n    writeFinal(io, last);",
      },
    ],
    says: /print：prompt 的拒绝不要接住，它原样传出/,
  },
  {
    checkpoint: "13",
    name: "JSON 模式从不取消订阅",
    lab: "13.4",
    mutations: [
      {
        file: modes,
        find: "  } finally {\n    unsubscribe();\n  }",
        replace: "  } finally {\n    void unsubscribe;\n  }",
      },
    ],
    says: /JSON 模式订阅一次，结束时（finally）取消订阅/,
  },
  {
    checkpoint: "13",
    name: "selectMode 用 in：原型上的 toString 也成了模式",
    lab: "13.4",
    mutations: [{ file: modes, find: "  if (!Object.hasOwn(MODES, name)) {", replace: "  if (!(name in MODES)) {" }],
    says: /未知的模式：原型上的名字（toString）也不是模式/,
  },
  // Issue 34's fresh walk of chapters 00–05: rules a guide or starter states that no assertion observed.
  {
    checkpoint: "01",
    name: "start 带了别的字段就拒绝",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: '    case "start":\n      return undefined;',
        replace:
          '    case "start":\n      return Object.keys(value).length === 1 ? undefined : \'"start" takes no other fields\';',
      },
    ],
    says: /多出来的字段不拒绝/,
  },
  {
    checkpoint: "03",
    name: "assistantHead 只给 error 写 errorMessage，aborted 的诊断丢了",
    lab: "3.3",
    mutations: [
      {
        file: "packages/pi-core/src/projection.ts",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of projection.ts as it is written
        find: '  const why = message.errorMessage === undefined ? "" : `: ${message.errorMessage}`;',
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of projection.ts as it is written
          '  const why = message.stopReason !== "error" || message.errorMessage === undefined ? "" : `: ${message.errorMessage}`;',
      },
    ],
    says: /aborted 也是终态：有 errorMessage 时和 error 一样写成/,
  },
  {
    checkpoint: "04",
    name: "预取消的检查放在脚本耗尽的检查之后",
    lab: "4.4",
    mutations: [
      {
        file: scriptedModel,
        find: '    if (options?.signal?.aborted) {\n      return playTurn(assistantMessage([], "aborted"));\n    }\n',
        replace: "",
      },
      {
        file: scriptedModel,
        find: "    this.played += 1;\n",
        replace:
          '    if (options?.signal?.aborted) {\n      return playTurn(assistantMessage([], "aborted"));\n    }\n    this.played += 1;\n',
      },
    ],
    says: /预取消的检查在找回合之前/,
  },
  {
    checkpoint: "05",
    name: "有调用没文字的 assistant 写死 content: null，不看 compat",
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        find: 'content: text === "" ? compat.emptyAssistantContent : text,',
        replace: 'content: text === "" ? null : text,',
      },
    ],
    says: /content 用 compat\.emptyAssistantContent/,
  },
  {
    checkpoint: "05",
    name: "partial() 总放一个 text 块，没收到文字时也放空的",
    lab: "5.2",
    mutations: [
      {
        file: chunkMapper,
        find: '    const content: (TextContent | ToolCall)[] = this.text === "" ? [] : [{ type: "text", text: this.text }];',
        replace: '    const content: (TextContent | ToolCall)[] = [{ type: "text", text: this.text }];',
      },
    ],
    says: /this\.text 为 "" 时不放 text 块/,
  },
  {
    checkpoint: "05",
    name: "没有 choices 的数据块被当成坏形状",
    lab: "5.3",
    mutations: [
      {
        file: chunkShape,
        find: "  if (choices === undefined) return undefined;\n",
        replace: "",
      },
    ],
    says: /choices 缺省的数据块不是坏形状/,
  },
  {
    checkpoint: "05",
    name: "重复的调用 id 原样保留，不经过 uniqueId()",
    lab: "5.5",
    mutations: [
      {
        file: assembler,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of tool-call-assembler.ts as it is written
        find: '        const id = uniqueId(partial.id === "" ? `call_${partial.index}` : partial.id, partial.index, used);',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of tool-call-assembler.ts as it is written
        replace: '        const id = partial.id === "" ? `call_${partial.index}` : partial.id;',
      },
    ],
    says: /每个 id 只用一次/,
  },
  // Issue 34's sentence-by-sentence pass over the guides and starters of 00–05: a mistake per rule
  // that no assertion observed before (the mapping is in each guide's maintainer notes).
  {
    checkpoint: "00",
    name: "先返回末尾还开着的调用，再返回更早悬空的",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: "  return [...dangling, ...open];",
        replace: "  return [...open, ...dangling];",
      },
    ],
    says: /按 transcript 的顺序返回/,
  },
  {
    checkpoint: "02",
    name: "push 交给等待者之后又把事件放进队列",
    lab: "2.2",
    mutations: [
      {
        file: modelStream,
        find: "    if (waiter) waiter.resolve({ value: event, done: false });\n    else this.buffered.push(event);",
        replace: "    if (waiter) waiter.resolve({ value: event, done: false });\n    this.buffered.push(event);",
      },
    ],
    says: /直接交给等待者的事件不进队列/,
  },
  {
    checkpoint: "02",
    name: "end 只结束最早的等待者",
    lab: "2.2",
    mutations: [
      {
        file: modelStream,
        find: "    for (const waiter of this.waiters.splice(0)) waiter.resolve({ value: undefined, done: true });",
        replace: "    this.waiters.shift()?.resolve({ value: undefined, done: true });",
      },
    ],
    says: /end 让所有等待者以 done 结束/,
  },
  {
    checkpoint: "02",
    name: "fail 只 reject 最早的等待者",
    lab: "2.2",
    mutations: [
      {
        file: modelStream,
        find: "    for (const waiter of this.waiters.splice(0)) waiter.reject(error);",
        replace: "    this.waiters.shift()?.reject(error);",
      },
    ],
    says: /fail 让每个等待者都以同一个错误 reject/,
  },
  {
    checkpoint: "04",
    name: "options 复制一份再记下",
    lab: "4.1",
    mutations: [
      {
        file: scriptedModel,
        find: "    this.requestOptions.push(options);",
        replace: "    this.requestOptions.push(options && { ...options });",
      },
    ],
    says: /options 原样记下：就是调用者交来的那个对象/,
  },
  {
    checkpoint: "04",
    name: "把脚本里的回合本身交给 playTurn()",
    lab: "4.1",
    mutations: [
      {
        file: scriptedModel,
        find: "    return playTurn(structuredClone(turn));",
        replace: "    return playTurn(turn);",
      },
    ],
    says: /交给 playTurn\(\) 的是回合的副本/,
  },
  {
    checkpoint: "04",
    name: "几个文本块并成一个 text_delta",
    lab: "4.1",
    mutations: [
      {
        file: scriptedModel,
        find: '  for (const block of turn.content) {\n    if (block.type === "text") stream.push({ type: "text_delta", delta: block.text });\n  }',
        replace:
          '  const said = turn.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");\n  if (said !== "") stream.push({ type: "text_delta", delta: said });',
      },
    ],
    says: /每个文本块按 content 里的顺序各一个 text_delta/,
  },
  {
    checkpoint: "04",
    name: "先发全部 toolcall_delta，再发全部 toolcall_end",
    lab: "4.1",
    mutations: [
      {
        file: scriptedModel,
        find: '    stream.push({ type: "toolcall_delta", delta: JSON.stringify(call.arguments) });\n    stream.push({ type: "toolcall_end", toolCall: structuredClone(call) });\n  }',
        replace:
          '    stream.push({ type: "toolcall_delta", delta: JSON.stringify(call.arguments) });\n  }\n  for (const call of toolCallsOf(turn)) {\n    stream.push({ type: "toolcall_end", toolCall: structuredClone(call) });\n  }',
      },
    ],
    says: /每个调用先 toolcall_delta 再 toolcall_end，一个调用接一个调用/,
  },
  {
    checkpoint: "05",
    name: "system 的角色写死成 system，不看 compat.systemRole",
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        find: "    params.push({ role: compat.systemRole, content: systemPrompt });",
        replace: '    params.push({ role: "system", content: systemPrompt });',
      },
    ],
    says: /system 的角色是 compat\.systemRole/,
  },
  {
    checkpoint: "05",
    name: "工具结果从不带 name，不看 compat.toolResultName",
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        find: "  return compat.toolResultName ? ({ ...param, name: message.toolName } as ChatCompletionToolMessageParam) : param;",
        replace: "  return param;",
      },
    ],
    says: /compat\.toolResultName 为 true 时工具结果带上 name/,
  },
  {
    checkpoint: "05",
    name: "assistant 的多个 text 块直接拼接，不用换行",
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of request-messages.ts as it is written
        find: '    if (block.type === "text") text += text === "" ? block.text : `\\n${block.text}`;',
        replace: '    if (block.type === "text") text += block.text;',
      },
    ],
    says: /assistant 的多个 text 块用换行连成 content/,
  },
  {
    checkpoint: "05",
    name: "凭据头只给原值，不给去掉 Bearer 之后的值",
    lab: "5.2",
    mutations: [
      {
        file: redact,
        find: '    /auth|key|token|secret/i.test(name) ? [value, value.replace(/^\\s*(Bearer|Basic)\\s+/i, "")] : [],',
        replace: "    /auth|key|token|secret/i.test(name) ? [value] : [],",
      },
    ],
    says: /凭据头给出两个值：原值，以及去掉 Bearer 之后的值/,
  },
  {
    checkpoint: "05",
    name: "length 被当成 stop",
    lab: "5.4",
    mutations: [
      {
        file: finishReason,
        find: '    case "length":\n      return { reason: "length" };',
        replace: '    case "length":\n      return { reason: "stop" };',
      },
    ],
    says: /finish_reason length 是 done length/,
  },
  {
    checkpoint: "05",
    name: "tool_calls 被当成 stop",
    lab: "5.4",
    mutations: [
      {
        file: finishReason,
        find: '    case "tool_calls":\n      return { reason: "toolUse" };',
        replace: '    case "tool_calls":\n      return { reason: "stop" };',
      },
    ],
    says: /finish_reason tool_calls 是 done toolUse/,
  },
  {
    checkpoint: "05",
    name: "reasoning_content 也当成回答的文字",
    lab: "5.4",
    mutations: [
      {
        file: chunkMapper,
        find: "    const content = delta.content;",
        replace: "    const content = delta.content ?? (delta as { reasoning_content?: string }).reasoning_content;",
      },
    ],
    says: /reasoning_content（推理内容）不读/,
  },
  {
    checkpoint: "05",
    name: "调用按第一个片段到达的先后排列，不按 index",
    lab: "5.5",
    mutations: [{ file: assembler, find: "      .sort((a, b) => a.index - b.index)\n", replace: "" }],
    says: /finish\(\) 按 index 从小到大排列调用/,
  },
  {
    checkpoint: "05",
    name: "坏调用的 problem 从不存下",
    lab: "5.5",
    mutations: [
      {
        file: chunkMapper,
        find: '    this.callProblem = finishReason === "length" ? undefined : problem;',
        replace: "    this.callProblem = undefined;",
      },
    ],
    says: /不是 length 时 finish\(\) 的第一处问题存进 callProblem/,
  },
  // The second fresh-learner walk of 00–05 (walk0005): mistakes of its own that passed verify silently.
  {
    checkpoint: "00",
    name: "一条 user 消息清空了 open",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: '    } else if (message.role === "toolResult") {',
        replace:
          '    } else if (message.role === "user") {\n      open = [];\n    } else if (message.role === "toolResult") {',
      },
    ],
    says: /user 消息不改变 open/,
  },
  {
    checkpoint: "00",
    name: "同一条 assistant 的调用倒序记进 open",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: "      open = toolCallsOf(message);",
        replace: "      open = toolCallsOf(message).reverse();",
      },
    ],
    says: /按声明的顺序返回/,
  },
  {
    checkpoint: "01",
    name: "error 的一行按真假判断 message，空字符串的 message 被省略",
    lab: "1.1",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "      return event.message === undefined ? `error ${event.reason}`",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        replace: "      return !event.message ? `error ${event.reason}`",
      },
    ],
    says: /有 message 字段就写成 error <reason>: <message>，空字符串也是 message/,
  },
  {
    checkpoint: "01",
    name: "error 的 message 只在为真时检查类型，null 通过了边界",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: '      return value.message === undefined || typeof value.message === "string"',
        replace: '      return !value.message || typeof value.message === "string"',
      },
    ],
    says: /"message":null\} 应当被拒绝/,
  },
  {
    checkpoint: "01",
    name: "done 也接受 aborted",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "      return DONE_REASONS.includes(value.reason) ?",
        replace: '      return [...DONE_REASONS, "aborted"].includes(value.reason) ?',
      },
    ],
    says: /"reason":"aborted"\} 应当被拒绝/,
  },
  {
    checkpoint: "01",
    name: "空字符串的 delta 被当成缺了 delta",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: '      return typeof value.delta === "string" ? undefined',
        replace: '      return typeof value.delta === "string" && value.delta !== "" ? undefined',
      },
    ],
    says: /delta 只要是字符串就合法，空字符串(、前后有空白的)?也是/,
  },
  {
    checkpoint: "02",
    name: "队列读完就清空，readIndex 不归零：之后 push 的事件读不到",
    lab: "2.1",
    mutations: [
      {
        file: modelStream,
        find: "      if (this.readIndex >= 1024 && this.readIndex * 2 >= this.buffered.length) {\n        this.buffered.splice(0, this.readIndex);\n        this.readIndex = 0;\n      }",
        replace: "      if (this.readIndex === this.buffered.length) this.buffered.length = 0;",
      },
    ],
    says: /队列读完以后、没有人等待时 push 的事件仍排进队列/,
  },
  {
    checkpoint: "02",
    name: "丢掉读过的部分时忘了把 readIndex 归零",
    lab: "2.1",
    mutations: [
      {
        file: modelStream,
        find: "        this.buffered.splice(0, this.readIndex);\n        this.readIndex = 0;\n",
        replace: "        this.buffered.splice(0, this.readIndex);\n",
      },
    ],
    says: /长回合的 3000 个事件一个不少/,
  },
  {
    checkpoint: "02",
    name: "result() 给出 end 收到的消息的副本",
    lab: "2.1",
    mutations: [
      {
        file: modelStream,
        find: "    this.settleFinal.resolve(message);",
        replace: "    this.settleFinal.resolve({ ...message });",
      },
    ],
    says: /result\(\) 给出 end 收到的那一条 assistant（同一个对象，不是副本）/,
  },
  {
    checkpoint: "03",
    name: "投影就地排序 assistant 的块",
    lab: "3.2",
    mutations: [
      {
        file: "packages/pi-core/src/projection.ts",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "      return `${assistantHead(message)}: ${message.content\n",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
          "      return `${assistantHead(message)}: ${message.content\n        .sort((a, b) => a.type.localeCompare(b.type))\n",
      },
    ],
    says: /投影只读：不 push、不 sort、不改写任何字段/,
  },
  {
    checkpoint: "03",
    name: "assistantMessage 省略时间戳时取 0",
    lab: "3.1",
    mutations: [
      {
        file: "packages/pi-core/src/messages.ts",
        find: "  stopReason: StopReason,\n  timestamp: number = Date.now(),",
        replace: "  stopReason: StopReason,\n  timestamp = 0,",
      },
    ],
    says: /省略时间戳时取当前时间（Date\.now\(\)），不是 0/,
  },
  {
    checkpoint: "03",
    name: "userMessage 省略时间戳时取 0",
    lab: "3.1",
    mutations: [
      {
        file: "packages/pi-core/src/messages.ts",
        find: "timestamp: number = Date.now()): UserMessage",
        replace: "timestamp = 0): UserMessage",
      },
    ],
    says: /user 消息省略时间戳时同样取当前时间/,
  },
  {
    checkpoint: "03",
    name: "errorMessage 按真假判断，空字符串的诊断被省略",
    lab: "3.3",
    mutations: [
      {
        file: "packages/pi-core/src/projection.ts",
        find: '  const why = message.errorMessage === undefined ? "" :',
        replace: '  const why = !message.errorMessage ? "" :',
      },
    ],
    says: /有 errorMessage 字段就写进括号，空字符串也是/,
  },
  {
    checkpoint: "04",
    name: "文本块倒序播放",
    lab: "4.1",
    mutations: [
      {
        file: scriptedModel,
        find: "  for (const block of turn.content) {",
        replace: "  for (const block of [...turn.content].reverse()) {",
      },
    ],
    says: /每个文本块按 content 里的顺序各一个 text_delta/,
  },
  {
    checkpoint: "04",
    name: "脚本耗尽按播放过的回合数说第几次请求",
    lab: "4.3",
    mutations: [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
      { file: scriptedModel, find: "request ${this.requests.length} has", replace: "request ${this.played + 1} has" },
    ],
    says: /第几次请求是 this\.requests\.length：耗尽之后再请求一次，写明的是第 3 次请求/,
  },
  {
    checkpoint: "05",
    name: "toolParam 删掉调用者那条工具结果的 details",
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        find: "  const param: ChatCompletionToolMessageParam = {",
        replace:
          "  delete (message as { details?: unknown }).details;\n  const param: ChatCompletionToolMessageParam = {",
      },
    ],
    says: /转换不改调用者的 canonical 消息/,
  },
  {
    checkpoint: "05",
    name: "失败的工具结果把 isError 发上线",
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        find: "    content: joinText(message.content),\n  };",
        replace:
          "    content: joinText(message.content),\n    ...(message.isError ? { is_error: true } : {}),\n  } as ChatCompletionToolMessageParam;",
      },
    ],
    says: /失败的工具结果也只发 role、tool_call_id、content/,
  },
  {
    checkpoint: "05",
    name: "工具结果只发第一段文字",
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        find: "    content: joinText(message.content),\n  };",
        replace: '    content: message.content[0]?.text ?? "",\n  };',
      },
    ],
    says: /多段文字用换行连接/,
  },
  {
    checkpoint: "05",
    name: "systemPrompt 为空字符串时也发 system 消息",
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        find: '  if (systemPrompt !== undefined && systemPrompt !== "")',
        replace: "  if (systemPrompt !== undefined)",
      },
    ],
    says: /systemPrompt 为空字符串（""）时不发 system 消息/,
  },
  {
    checkpoint: "05",
    name: "有调用时丢掉文字，content 总用 emptyAssistantContent",
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        find: 'content: text === "" ? compat.emptyAssistantContent : text, tool_calls',
        replace: "content: compat.emptyAssistantContent, tool_calls",
      },
    ],
    says: /有文字也有调用的 assistant：文字照样放进 content/,
  },
  {
    checkpoint: "05",
    name: "名字里有 token、secret 的请求头不算凭据",
    lab: "5.2",
    mutations: [{ file: redact, find: "/auth|key|token|secret/i.test(name)", replace: "/auth|key/i.test(name)" }],
    says: /名字里有 token 或 secret 的请求头也是凭据/,
  },
  {
    checkpoint: "05",
    name: "不是我们发的 Bearer 凭据留在 errorMessage 里",
    lab: "5.2",
    mutations: [
      {
        file: redact,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "    return redacted.replace(SCHEME_CREDENTIAL, `$1 ${REDACTED}`);",
        replace: "    return redacted;",
      },
    ],
    says: /哪怕它不是我们发的/,
  },
  {
    checkpoint: "05",
    name: "查询串里的密钥只给原样的一份，没有 percent 编码的",
    lab: "5.2",
    mutations: [
      {
        file: redact,
        find: ".flatMap(([, value]) => [value, encodeURIComponent(value)]);",
        replace: ".flatMap(([, value]) => [value]);",
      },
    ],
    says: /查询串里 percent 编码写出的密钥也换掉/,
  },
  {
    checkpoint: "05",
    name: "urlCredentials 在解析不了的 url 上抛出",
    lab: "5.2",
    mutations: [
      {
        file: redact,
        find: "  let query: URLSearchParams;\n  try {\n    query = new URL(url).searchParams;\n  } catch {\n    return [];\n  }",
        replace: "  const query = new URL(url).searchParams;",
      },
    ],
    says: /url 解析不了时 urlCredentials 返回 \[\]，不抛出/,
  },
  {
    checkpoint: "05",
    name: "finish_reason 到过以后还读后来的 content",
    lab: "5.4",
    mutations: [
      {
        file: chunkMapper,
        find: "    if (choice === undefined || this.finishReason !== undefined) return;",
        replace: "    if (choice === undefined) return;",
      },
    ],
    says: /finish_reason 到过以后，之后的 choice 不再读/,
  },
  {
    checkpoint: "05",
    name: "usage 缺的字段不记 0",
    lab: "5.4",
    mutations: [
      {
        file: chunkMapper,
        find: "    if (usage) this.usage = { input: usage.prompt_tokens ?? 0, output: usage.completion_tokens ?? 0 };",
        replace:
          '    if (usage) this.usage = { input: usage.prompt_tokens, output: usage.completion_tokens } as AssistantMessage["usage"];',
      },
    ],
    says: /usage 缺的字段记 0/,
  },
  {
    checkpoint: "05",
    name: "空的参数片段也发 toolcall_delta",
    lab: "5.5",
    mutations: [
      {
        file: chunkMapper,
        find: '      if (piece !== "") this.emit({ type: "toolcall_delta", delta: piece });',
        replace: '      this.emit({ type: "toolcall_delta", delta: piece });',
      },
    ],
    says: /参数为 "" 的片段（只带 id 与 name 的第一个片段）不发 toolcall_delta/,
  },
  {
    checkpoint: "05",
    name: "没有 id 的调用 id 留空",
    lab: "5.5",
    mutations: [
      {
        file: assembler,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: 'uniqueId(partial.id === "" ? `call_${partial.index}` : partial.id,',
        replace: "uniqueId(partial.id,",
      },
    ],
    says: /没有 id 的调用得到 call_<index>/,
  },
  {
    checkpoint: "05",
    name: "后面的坏调用覆盖前面的 problem",
    lab: "5.5",
    mutations: [{ file: assembler, find: "        if (problem === undefined) {", replace: "        {" }],
    says: /problem 只记第一处（index 最小的坏调用）/,
  },
  // The third fresh-learner walk of 00–05 (issue 34): mistakes that passed verify silently there, went red in a
  // later lab, or were told only a generic line or a raw TypeError.
  {
    checkpoint: "00",
    name: "结果按工具名配对，不按 toolCallId",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: "      open = open.filter((call) => call.id !== message.toolCallId);",
        replace: "      open = open.filter((call) => call.name !== message.toolName);",
      },
    ],
    says: /结果只按 toolCallId 配对，不看顺序、不看工具名/,
  },
  {
    checkpoint: "01",
    name: "unreachable() 抛出字符串，不是 Error",
    lab: "1.1",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "  throw new Error(`Unhandled value: ${JSON.stringify(value)}`);",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        replace: "  throw `Unhandled value: ${JSON.stringify(value)}`;",
      },
    ],
    says: /unreachable\(\) 抛出 Error（不是字符串）/,
  },
  {
    checkpoint: "03",
    name: "userMessage() 把字符串 content trim 掉",
    lab: "3.1",
    mutations: [
      {
        file: "packages/pi-core/src/messages.ts",
        find: '  return { role: "user", content, timestamp };',
        replace:
          '  return { role: "user", content: typeof content === "string" ? content.trim() : content, timestamp };',
      },
    ],
    says: /user 消息的 content 原样放进去，内容不改写/,
  },
  {
    checkpoint: "03",
    name: "投影里 user 的字符串被 trim",
    lab: "3.2",
    mutations: [
      {
        file: "packages/pi-core/src/projection.ts",
        find: 'typeof message.content === "string" ? message.content : joined(message.content)',
        replace: 'typeof message.content === "string" ? message.content.trim() : joined(message.content)',
      },
    ],
    says: /user：字符串原样用，不 trim/,
  },
  {
    checkpoint: "03",
    name: "toolResult 一行只看第一个块，不是 firstLine(joined(content))",
    lab: "3.2",
    mutations: [
      {
        file: "packages/pi-core/src/projection.ts",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "${firstLine(joined(message.content))}`;",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        replace: '${firstLine(message.content[0]?.text ?? "")}`;',
      },
    ],
    says: /toolResult 的文字是 firstLine\(joined\(content\)\)/,
  },
  {
    checkpoint: "03",
    name: "assistant 一行 trimEnd()：没有块时冒号后的空格丢了",
    lab: "3.2",
    mutations: [
      {
        file: "packages/pi-core/src/projection.ts",
        find: '        .join(" ")}`;',
        replace: '        .join(" ")}`.trimEnd();',
      },
    ],
    says: /没有块时这一行就以 `: ` 结尾，冒号后的空格照写/,
  },
  // The fresh-learner walk of 03–05 after issue 34's fixes (walk B): mistakes that passed verify silently there.
  {
    checkpoint: "03",
    name: "projectText 按时间戳排序，不按 transcript 的顺序",
    lab: "3.2",
    mutations: [
      {
        file: "packages/pi-core/src/projection.ts",
        find: '  return messages.map(projectLine).join("\\n");',
        replace: '  return [...messages].sort((a, b) => a.timestamp - b.timestamp).map(projectLine).join("\\n");',
      },
    ],
    says: /按 transcript 的顺序，不按时间戳排序/,
  },
  {
    checkpoint: "03",
    name: "text() 把 value trim 掉",
    lab: "3.1",
    mutations: [
      {
        file: "packages/pi-core/src/messages.ts",
        find: '  return { type: "text", text: value };',
        replace: '  return { type: "text", text: value.trim() };',
      },
    ],
    says: /text\(\) 的 value 原样放进 text 字段，内容不改写：不 trim/,
  },
  {
    checkpoint: "03",
    name: "块数组形式的 user 用空格连接，不用 joined()",
    lab: "3.2",
    mutations: [
      {
        file: "packages/pi-core/src/projection.ts",
        find: 'typeof message.content === "string" ? message.content : joined(message.content)',
        replace:
          'typeof message.content === "string" ? message.content : message.content.map((block) => block.text).join(" ")',
      },
    ],
    says: /块数组形式的 user 内容用 joined\(\) 连成一行：块之间什么也不加/,
  },
  {
    checkpoint: "04",
    name: "有 errorMessage 的 aborted 回合播放成 reason error",
    lab: "4.2",
    mutations: [
      {
        file: scriptedModel,
        find: '        : { type: "error", reason, message: turn.errorMessage },',
        replace: '        : { type: "error", reason: "error", message: turn.errorMessage },',
      },
    ],
    says: /有 errorMessage 的 aborted 回合仍是 reason aborted/,
  },
  {
    checkpoint: "04",
    name: "toolcall_delta 写出整个调用，不是它的参数",
    lab: "4.1",
    mutations: [
      {
        file: scriptedModel,
        find: "delta: JSON.stringify(call.arguments) });",
        replace: "delta: JSON.stringify(call) });",
      },
    ],
    says: /toolcall_delta 的 delta 是 JSON\.stringify\(call\.arguments\)/,
  },
  {
    checkpoint: "04",
    name: "toolcall_end 先于 toolcall_delta",
    lab: "4.1",
    mutations: [
      {
        file: scriptedModel,
        find: '    stream.push({ type: "toolcall_delta", delta: JSON.stringify(call.arguments) });\n',
        replace: "",
      },
      {
        file: scriptedModel,
        find: '    stream.push({ type: "toolcall_end", toolCall: structuredClone(call) });\n',
        replace:
          '    stream.push({ type: "toolcall_end", toolCall: structuredClone(call) });\n    stream.push({ type: "toolcall_delta", delta: JSON.stringify(call.arguments) });\n',
      },
    ],
    says: /每个调用先 push toolcall_delta，再 push toolcall_end/,
  },
  // The fresh-learner walk of 03–05 after issue 34's fixes (walk B).
  {
    checkpoint: "04",
    name: "文本块与调用按 content 的顺序在一个循环里播放",
    lab: "4.1",
    mutations: [
      {
        file: scriptedModel,
        find: '    if (block.type === "text") stream.push({ type: "text_delta", delta: block.text });\n  }\n  for (const call of toolCallsOf(turn)) {\n    stream.push({ type: "toolcall_delta", delta: JSON.stringify(call.arguments) });\n    stream.push({ type: "toolcall_end", toolCall: structuredClone(call) });\n  }\n',
        replace:
          '    if (block.type === "text") stream.push({ type: "text_delta", delta: block.text });\n    else {\n      stream.push({ type: "toolcall_delta", delta: JSON.stringify(block.arguments) });\n      stream.push({ type: "toolcall_end", toolCall: structuredClone(block) });\n    }\n  }\n',
      },
    ],
    says: /先发完所有文本块，再发调用/,
  },
  {
    checkpoint: "04",
    name: "预取消只看有没有 signal，不看 signal.aborted",
    lab: "4.1",
    mutations: [
      { file: scriptedModel, find: "    if (options?.signal?.aborted) {", replace: "    if (options?.signal) {" },
    ],
    says: /options 里有 signal 但它还没有取消（signal\.aborted 为 false）：回合照常播放/,
  },
  {
    checkpoint: "04",
    name: "找到回合之后才记下快照：超出脚本的请求没有记下",
    lab: "4.3",
    mutations: [
      {
        file: scriptedModel,
        find: "    this.requests.push(structuredClone(request));\n    this.requestOptions.push(options);\n",
        replace: "",
      },
      {
        file: scriptedModel,
        find: "    this.played += 1;\n",
        replace:
          "    this.requests.push(structuredClone(request));\n    this.requestOptions.push(options);\n    this.played += 1;\n",
      },
    ],
    says: /快照在检查回合之前已经记下：超出脚本的请求也记进 requests/,
  },
  {
    checkpoint: "04",
    name: "脚本耗尽时把那句话也当成文字放进 content",
    lab: "4.3",
    mutations: [
      {
        file: scriptedModel,
        find: '        ...assistantMessage([], "error"),',
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
          '        ...assistantMessage([{ type: "text", text: `request ${this.requests.length} has no scripted turn` }], "error"),',
      },
    ],
    says: /脚本耗尽没有回合可放：result\(\) 是一条空的 assistant/,
  },
  {
    checkpoint: "05",
    name: "partial() 总写 usage 字段，没收到 usage 时是 usage: undefined",
    lab: "5.2",
    mutations: [
      {
        file: chunkMapper,
        find: "    if (this.usage) assistant.usage = this.usage;",
        replace: "    assistant.usage = this.usage;",
      },
    ],
    says: /this\.usage 存在时才写 usage 字段/,
  },
  {
    checkpoint: "05",
    name: "凭据头只去掉 Bearer，不去掉 Basic",
    lab: "5.2",
    mutations: [
      {
        file: redact,
        find: 'value.replace(/^\\s*(Bearer|Basic)\\s+/i, "")',
        replace: 'value.replace(/^\\s*Bearer\\s+/i, "")',
      },
    ],
    says: /去掉 `Bearer ` \/ `Basic ` 之后的值：Basic 凭据的后半截也换掉/,
  },
  {
    checkpoint: "05",
    name: "choices 不是列表时整段 JSON.stringify，不用 shown()",
    lab: "5.3",
    mutations: [
      {
        file: chunkShape,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "choices is ${shown(choices)}, not a list",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        replace: "choices is ${JSON.stringify(choices)}, not a list",
      },
    ],
    says: /每一句都用 shown\(\) 说出收到的值：最多 80 个字符/,
  },
  {
    checkpoint: "05",
    name: "只检查 choices[0]",
    lab: "5.3",
    mutations: [
      {
        file: chunkShape,
        find: "for (const [index, choice] of choices.entries())",
        replace: "for (const [index, choice] of choices.slice(0, 1).entries())",
      },
    ],
    says: /每个 choices\[i\] 都检查，不只是 choices\[0\]/,
  },
  {
    checkpoint: "05",
    name: "参数片段 trim 之后才追加、返回",
    lab: "5.5",
    mutations: [
      {
        file: assembler,
        find: "    call.arguments += piece;\n    return piece;",
        replace: "    call.arguments += piece.trim();\n    return piece.trim();",
      },
    ],
    says: /非空的参数片段追加进去，并原样返回/,
  },
  {
    checkpoint: "05",
    name: "accept() 不记 lastIndex：没有 index 的片段拼错",
    lab: "5.5",
    mutations: [{ file: assembler, find: "    this.lastIndex = index;\n", replace: "" }],
    says: /accept\(\) 每次都把 this\.lastIndex 记成这个片段的 index/,
  },
  {
    checkpoint: "05",
    name: "参数是 {} 的调用没有 toolcall_end",
    lab: "5.5",
    mutations: [
      {
        file: chunkMapper,
        find: '    for (const toolCall of calls) this.emit({ type: "toolcall_end", toolCall });',
        replace:
          '    for (const toolCall of calls)\n      if (Object.keys(toolCall.arguments).length > 0) this.emit({ type: "toolcall_end", toolCall });',
      },
    ],
    says: /为每个调用发出 toolcall_end，参数是 \{\} 的调用/,
  },
  {
    checkpoint: "05",
    name: "取消时的 errorMessage 不是 ABORTED_MESSAGE",
    lab: "5.6",
    mutations: [
      {
        file: chunkMapper,
        find: 'return this.fail(assistant, "aborted", ABORTED_MESSAGE);',
        replace: 'return this.fail(assistant, "aborted", "cancelled");',
      },
    ],
    says: /errorMessage 就是 ABORTED_MESSAGE/,
  },
  // The fresh-learner walk of 03–05 after issue 34's fixes (walk F): mistakes that passed verify silently
  // there, or went red with a neighbouring rule's message.
  {
    checkpoint: "03",
    name: "toolResult 一行写工具名，不写调用的 id",
    lab: "3.2",
    mutations: [
      {
        file: "packages/pi-core/src/projection.ts",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "return `toolResult ${message.toolCallId}",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        replace: "return `toolResult ${message.toolName}",
      },
    ],
    says: /id 是结果的 toolCallId（call-1），不是工具名 toolName（read）/,
  },
  {
    checkpoint: "04",
    name: "空字符串的 text 块不发 text_delta",
    lab: "4.1",
    mutations: [
      {
        file: scriptedModel,
        find: '    if (block.type === "text") stream.push({ type: "text_delta", delta: block.text });',
        replace:
          '    if (block.type === "text" && block.text !== "") stream.push({ type: "text_delta", delta: block.text });',
      },
    ],
    says: /空字符串的块也是（delta 为 ""）/,
  },
  {
    checkpoint: "04",
    name: '错误回合按真假看 errorMessage：errorMessage 为 "" 时事件不带 message',
    lab: "4.2",
    mutations: [
      { file: scriptedModel, find: "      turn.errorMessage === undefined\n", replace: "      !turn.errorMessage\n" },
    ],
    says: /有 errorMessage 字段就加上 message，空字符串也是/,
  },
  {
    checkpoint: "04",
    name: "options 在预取消的分支之后才记下：预取消的请求不在 requestOptions 里",
    lab: "4.4",
    mutations: [
      {
        file: scriptedModel,
        find: "    this.requestOptions.push(options);\n    if (options?.signal?.aborted) {",
        replace: "    if (options?.signal?.aborted) {",
      },
      {
        file: scriptedModel,
        find: "    const turn = this.turns[this.played];",
        replace: "    this.requestOptions.push(options);\n    const turn = this.turns[this.played];",
      },
    ],
    says: /预取消的请求的 options 也记进 requestOptions/,
  },
  {
    checkpoint: "05",
    name: "chatMessages 把调用者的数组就地按时间戳排序",
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        find: "  for (const message of messages) {",
        replace: "  for (const message of messages.sort((a, b) => a.timestamp - b.timestamp)) {",
      },
    ],
    says: /转换不改调用者的 canonical 消息（不 sort、不 splice、不改字段）/,
  },
  {
    checkpoint: "05",
    name: "先换 Bearer 凭据再换密钥：密钥逗号之后的半截留下",
    lab: "5.2",
    mutations: [
      {
        file: redact,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "    let redacted = text;\n    for (const secret of exact) redacted = redacted.split(secret).join(REDACTED);\n    return redacted.replace(SCHEME_CREDENTIAL, `$1 ${REDACTED}`);",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
          "    let redacted = text.replace(SCHEME_CREDENTIAL, `$1 ${REDACTED}`);\n    for (const secret of exact) redacted = redacted.split(secret).join(REDACTED);\n    return redacted;",
      },
    ],
    says: /先换每个密钥，最后才换 SCHEME_CREDENTIAL/,
  },
  {
    checkpoint: "05",
    name: "先看 finish_reason 再 return：收尾块上的文字与最后一个参数片段丢了",
    lab: "5.4",
    mutations: [
      {
        file: chunkMapper,
        find: "    if (choice === undefined || this.finishReason !== undefined) return;\n",
        replace:
          "    if (choice === undefined || this.finishReason !== undefined) return;\n    if (choice.finish_reason) {\n      this.finishReason = choice.finish_reason;\n      if (this.assembler.pending) this.endCalls(choice.finish_reason);\n      return;\n    }\n",
      },
    ],
    says: /收尾的块（带着 finish_reason 的那块）里的 content 照样读/,
  },
  {
    checkpoint: "05",
    name: "只有空白的 content 片段被丢掉（trim 之后再判空）",
    lab: "5.4",
    mutations: [
      {
        file: chunkMapper,
        find: '    if (typeof content !== "string" || content === "") return;',
        replace: '    if (typeof content !== "string" || content.trim() === "") return;',
      },
    ],
    says: /只有空白的片段（.*）也是非空字符串/,
  },
  {
    checkpoint: "05",
    name: "finish_reason 先 trim、转小写：STOP 算成 stop",
    lab: "5.4",
    mutations: [
      {
        file: finishReason,
        find: "  switch (finishReason) {",
        replace: "  switch (finishReason?.trim().toLowerCase()) {",
      },
    ],
    says: /表是逐字的：大写的 STOP 也是不认识的原因/,
  },
  {
    checkpoint: "05",
    name: "partial() 把调用放在文字前面",
    lab: "5.5",
    mutations: [
      {
        file: chunkMapper,
        find: '    const content: (TextContent | ToolCall)[] = this.text === "" ? [] : [{ type: "text", text: this.text }];\n    content.push(...this.calls);',
        replace:
          '    const content: (TextContent | ToolCall)[] = [...this.calls];\n    if (this.text !== "") content.push({ type: "text", text: this.text });',
      },
    ],
    says: /content 先放文字的 text 块，再放已完成的调用/,
  },
  {
    checkpoint: "01",
    name: "isRecord() 放过 null：modelEventProblem(null) 抛出 TypeError",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: '  return typeof value === "object" && value !== null && !Array.isArray(value);',
        replace: '  return typeof value === "object" && !Array.isArray(value);',
      },
    ],
    says: /modelEventProblem\(null\) 不抛出，而是返回原因/,
  },
  {
    checkpoint: "05",
    name: "Bearer 凭据整个换成 [redacted]，Bearer 这个词也丢了",
    lab: "5.2",
    mutations: [
      {
        file: redact,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "    return redacted.replace(SCHEME_CREDENTIAL, `$1 ${REDACTED}`);",
        replace: "    return redacted.replace(SCHEME_CREDENTIAL, REDACTED);",
      },
    ],
    says: /保留 Bearer\/Basic 这个词，只换掉后面的凭据/,
  },
  {
    checkpoint: "05",
    name: "null 的调用片段被跳过，mapper 读它时抛出 TypeError",
    lab: "5.3",
    mutations: [
      {
        file: chunkShape,
        find: "    const bad = fragments.findIndex((fragment) => !isObject(fragment));",
        replace: "    const bad = fragments.findIndex((fragment) => fragment !== null && !isObject(fragment));",
      },
    ],
    says: /null 的调用片段不跳过/,
  },
  // The fresh-learner walks of 00–05 and 10–14 after issue 34's fixes (walk J, chapters 04–05): mistakes that
  // passed verify silently there, or went red with a neighbouring rule's message.
  {
    checkpoint: "04",
    name: "没有 errorMessage 的错误终态 reason 写死成 error",
    lab: "4.2",
    mutations: [
      {
        file: scriptedModel,
        find: '        ? { type: "error", reason }',
        replace: '        ? { type: "error", reason: "error" }',
      },
    ],
    says: /没有 errorMessage 的 aborted 回合也是 reason aborted/,
  },
  {
    checkpoint: "05",
    name: "toolResultName 写成 !== undefined：默认的 false 也给工具结果带上 name",
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        find: "  return compat.toolResultName ? (",
        replace: "  return compat.toolResultName !== undefined ? (",
      },
    ],
    says: /compat\.toolResultName 为 true 时才给工具结果加上 name/,
  },
  {
    checkpoint: "05",
    name: 'text("") 块也算有文字：只有它的 assistant 以 content "" 发出',
    lab: "5.1",
    mutations: [
      {
        file: requestMessages,
        find: '  if (toolCalls.length === 0) return text === "" ? undefined',
        replace:
          '  if (toolCalls.length === 0) return !message.content.some((block) => block.type === "text") ? undefined',
      },
      {
        file: requestMessages,
        find: 'content: text === "" ? compat.emptyAssistantContent : text,',
        replace:
          'content: !message.content.some((block) => block.type === "text") ? compat.emptyAssistantContent : text,',
      },
    ],
    says: /“有文字”看连起来的文字是不是 ""/,
  },
  {
    checkpoint: "05",
    name: "credentialHeaders() 只给出去掉 Bearer 之后的值，不给原值",
    lab: "5.2",
    mutations: [
      {
        file: redact,
        find: '[value, value.replace(/^\\s*(Bearer|Basic)\\s+/i, "")]',
        replace: '[value.replace(/^\\s*(Bearer|Basic)\\s+/i, "")]',
      },
    ],
    says: /credentialHeaders\(\) 给出两个值/,
  },
  {
    checkpoint: "05",
    name: "delta 不是对象时的那一句写死 choices[0]",
    lab: "5.3",
    mutations: [
      {
        file: chunkShape,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "return `a chunk's ${at}.delta is",
        replace: "return `a chunk's choices[0].delta is",
      },
    ],
    says: /这里是 choices\[1\]\.delta/,
  },
  {
    checkpoint: "05",
    name: "usage 的 input 与 output 对调",
    lab: "5.4",
    mutations: [
      {
        file: chunkMapper,
        find: "{ input: usage.prompt_tokens ?? 0, output: usage.completion_tokens ?? 0 }",
        replace: "{ input: usage.completion_tokens ?? 0, output: usage.prompt_tokens ?? 0 }",
      },
    ],
    says: /两个不要对调/,
  },
  {
    checkpoint: "05",
    name: 'finish_reason 为 "" 也算到过：之后的块不再读',
    lab: "5.4",
    mutations: [
      {
        file: chunkMapper,
        find: "    if (choice.finish_reason) {",
        replace: "    if (choice.finish_reason !== null && choice.finish_reason !== undefined) {",
      },
    ],
    says: /还不算到过/,
  },
  {
    checkpoint: "05",
    name: 'mapFinishReason("") 说成 no finish_reason',
    lab: "5.4",
    mutations: [{ file: finishReason, find: "    case undefined:\n", replace: '    case undefined:\n    case "":\n' }],
    says: /mapFinishReason\(""\) 是“其他任何值”那一句/,
  },
  {
    checkpoint: "05",
    name: "没有 id 的调用按它在列表里的位置编号，不按 index",
    lab: "5.5",
    mutations: [
      { file: assembler, find: ".map((partial): ToolCall => {", replace: ".map((partial, position): ToolCall => {" },
      {
        file: assembler,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "`call_${partial.index}`",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        replace: "`call_${position}`",
      },
    ],
    says: /index 2 的调用是 call_2/,
  },
  {
    checkpoint: "05",
    name: "只在 finish_reason 是 tool_calls 时 endCalls：length 截断的调用丢了",
    lab: "5.5",
    mutations: [
      {
        file: chunkMapper,
        find: "      if (this.assembler.pending) this.endCalls(choice.finish_reason);",
        replace: '      if (choice.finish_reason === "tool_calls") this.endCalls(choice.finish_reason);',
      },
    ],
    says: /length 截断的调用也进入 assistant/,
  },
  {
    checkpoint: "05",
    name: "aborted 分支 fail() 之后没有 return：又发出第二个终态",
    lab: "5.6",
    mutations: [
      {
        file: chunkMapper,
        find: '      return this.fail(assistant, "aborted", ABORTED_MESSAGE);',
        replace: '      this.fail(assistant, "aborted", ABORTED_MESSAGE);',
      },
    ],
    says: /一轮恰好一个终态/,
  },
  // The fresh-learner walks of 00–05 and 10–14 after issue 34's fixes (walk A, chapters 00–02): mistakes that
  // passed verify silently there, or went red with a neighbouring rule, a generic line or after the 30 s stop.
  {
    checkpoint: "00",
    name: "stopReason 不是 toolUse 的 assistant，它的调用不记进 open",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: "      open = toolCallsOf(message);",
        replace: '      open = message.stopReason === "toolUse" ? toolCallsOf(message) : [];',
      },
    ],
    says: /遇到 assistant 就让 open = toolCallsOf\(message\)，不看 stopReason/,
  },
  {
    checkpoint: "00",
    name: "先于调用到达的结果也算回答了它",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: "  let open: ToolCall[] = [];\n",
        replace: "  let open: ToolCall[] = [];\n  const answered = new Set<string>();\n",
      },
      {
        file: "packages/pi-core/src/trace.ts",
        find: "      open = toolCallsOf(message);",
        replace: "      open = toolCallsOf(message).filter((call) => !answered.has(call.id));\n      answered.clear();",
      },
      {
        file: "packages/pi-core/src/trace.ts",
        find: '    } else if (message.role === "toolResult") {\n',
        replace: '    } else if (message.role === "toolResult") {\n      answered.add(message.toolCallId);\n',
      },
    ],
    says: /结果只回答在它之前提出的调用/,
  },
  {
    checkpoint: "00",
    name: "新 assistant 的调用追加在 open 后面，旧的调用又记一次",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: "      open = toolCallsOf(message);",
        replace: "      open.push(...toolCallsOf(message));",
      },
    ],
    says: /每个悬空调用只记一次/,
  },
  {
    checkpoint: "01",
    name: "toolcall_end 先读 toolCall.id，再交给 toolCallProblem()",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "      return toolCallProblem(value.toolCall);",
        replace:
          '      return typeof (value.toolCall as ToolCall).id === "string"\n        ? toolCallProblem(value.toolCall)\n        : "toolCall needs a string id and name";',
      },
    ],
    says: /modelEventProblem\(\{"type":"toolcall_end"\}\) 不抛出，而是返回原因/,
  },
  {
    checkpoint: "01",
    name: "text_delta 的一行自己加引号，不用 JSON.stringify",
    lab: "1.1",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "      return `text_delta ${JSON.stringify(event.delta)}`;",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        replace: '      return `text_delta "${event.delta}"`;',
      },
    ],
    says: /text_delta 的一行是 text_delta 加上 JSON\.stringify\(delta\)，不是自己加引号/,
  },
  {
    checkpoint: "01",
    name: "unreachable() 的值带缩进，错误写成了多行",
    lab: "1.1",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "  throw new Error(`Unhandled value: ${JSON.stringify(value)}`);",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        replace: "  throw new Error(`Unhandled value: ${JSON.stringify(value, null, 2)}`);",
      },
    ],
    says: /unreachable\(event\) 抛出 Unhandled value: 加上 JSON\.stringify\(value\)，逐字就是这一句（一行，不加缩进/,
  },
  {
    checkpoint: "02",
    name: "next() 交付事件后忘了 readIndex 加一",
    lab: "2.1",
    mutations: [{ file: modelStream, find: "      this.readIndex += 1;\n", replace: "" }],
    says: /next\(\) 从 readIndex 处读一个，下标加一/,
  },
  {
    checkpoint: "02",
    name: "end 没有记下 closed",
    lab: "2.1",
    mutations: [
      {
        file: modelStream,
        find: "    this.closed = true;\n    this.settleFinal.resolve(message);",
        replace: "    this.settleFinal.resolve(message);",
      },
    ],
    says: /end\(message\) 记下 closed/,
  },
  {
    checkpoint: "02",
    name: "end 忘了兑现 result()",
    lab: "2.1",
    mutations: [{ file: modelStream, find: "    this.settleFinal.resolve(message);\n", replace: "" }],
    says: /end\(message\) 用 this\.settleFinal\.resolve\(message\) 兑现 result\(\)/,
  },
  {
    checkpoint: "02",
    name: "fail 忘了让 result() reject",
    lab: "2.2",
    mutations: [{ file: modelStream, find: "    this.settleFinal.reject(error);\n", replace: "" }],
    says: /fail\(error\) 用 this\.settleFinal\.reject\(error\) 让 result\(\) 以同一个错误 reject/,
  },
  {
    checkpoint: "02",
    name: "fail 把不是 Error 的值包成 Error 再交给等待者",
    lab: "2.2",
    mutations: [
      {
        file: modelStream,
        find: "    for (const waiter of this.waiters.splice(0)) waiter.reject(error);",
        replace:
          "    for (const waiter of this.waiters.splice(0)) {\n      waiter.reject(error instanceof Error ? error : new Error(String(error)));\n    }",
      },
    ],
    says: /不是 Error 的值也原样交出，不包成 new Error/,
  },
  // The fresh-learner walks of 00–05 and 10–14 after issue 34's fixes (walk E, chapters 00–02): mistakes that
  // passed verify silently there, or went red under a neighbouring rule's line or with a wrong guess.
  {
    checkpoint: "00",
    name: "isError 为 true 的结果不算回答",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: '    } else if (message.role === "toolResult") {',
        replace: '    } else if (message.role === "toolResult" && !message.isError) {',
      },
    ],
    says: /错误结果也是结果：isError 为 true 的 toolResult 同样回答了 call-1/,
  },
  {
    checkpoint: "00",
    name: "按 timestamp 排序后再走，不按 transcript 的顺序",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: "  for (const message of messages) {",
        replace: "  for (const message of [...messages].sort((a, b) => a.timestamp - b.timestamp)) {",
      },
    ],
    says: /按 transcript 的顺序走一遍消息，不按 timestamp 排序/,
  },
  {
    checkpoint: "00",
    name: "返回前按 id 去重，两条 assistant 各自悬空的 call-1 只记一次",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: "  return [...dangling, ...open];",
        replace: "  return [...new Map([...dangling, ...open].map((call) => [call.id, call])).values()];",
      },
    ],
    says: /每次提出算一个调用：两条 assistant 各自提出 call-1、都没有结果，是两个悬空调用/,
  },
  {
    checkpoint: "01",
    name: "error 先查 message 再查 reason",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: `      if (!ERROR_REASONS.includes(value.reason)) return '"error" needs reason "error" or "aborted"';
      return value.message === undefined || typeof value.message === "string"
        ? undefined
        : '"error" message must be a string';`,
        replace: `      if (value.message !== undefined && typeof value.message !== "string") return '"error" message must be a string';
      return ERROR_REASONS.includes(value.reason) ? undefined : '"error" needs reason "error" or "aborted"';`,
      },
    ],
    says: /error 先查 reason，再查 message/,
  },
  {
    checkpoint: "02",
    name: "读过事件以后队列空了，next() 就给出 done",
    lab: "2.2",
    mutations: [
      {
        file: modelStream,
        find: "    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));",
        replace:
          "    if (this.buffered.length === 0) return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));\n    return Promise.resolve({ value: undefined, done: true });",
      },
    ],
    says: /队列读完、流还没结束时 next\(\) 等待，不给出 done/,
  },
  {
    checkpoint: "02",
    name: "readIndex <= buffered.length 时也交付，最后多出一个 undefined",
    lab: "2.1",
    mutations: [
      {
        file: modelStream,
        find: "    if (this.readIndex < this.buffered.length) {",
        replace: "    if (this.readIndex <= this.buffered.length && this.buffered.length > 0) {",
      },
    ],
    says: /最后一个 push 的事件之后又交付了 1 个 undefined/,
  },
  // The fresh-learner walks of 00–05 and 10–14 after issue 34's fixes (walk I, chapters 00–02): mistakes that
  // passed verify silently there, or went red under the broader line before the one naming the rule.
  {
    checkpoint: "00",
    name: "结果的 toolName 也要与调用的 name 相同才算回答",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: "      open = open.filter((call) => call.id !== message.toolCallId);",
        replace:
          "      open = open.filter((call) => call.id !== message.toolCallId || call.name !== message.toolName);",
      },
    ],
    says: /只按 id 配对，不看工具名/,
  },
  {
    checkpoint: "01",
    name: 'error 用 "message" in event 判断有没有 message',
    lab: "1.1",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "      return event.message === undefined ? `error",
        replace: '      return !("message" in event) ? `error',
      },
    ],
    says: /message 是 undefined 时省略冒号：看 message === undefined，不看 "message" in event/,
  },
  {
    checkpoint: "01",
    name: "text_delta 的一行写出 trim 之后的 delta",
    lab: "1.1",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "JSON.stringify(event.delta)",
        replace: "JSON.stringify(event.delta.trim())",
      },
    ],
    says: /delta 原样写出，开头与结尾的空格、换行也是模型的输出，不 trim/,
  },
  {
    checkpoint: "02",
    name: 'next() 看 failure.error 的真假：fail("") 之后迭代正常结束',
    lab: "2.2",
    mutations: [
      {
        file: modelStream,
        find: "    if (this.failure) return Promise.reject(this.failure.error);",
        replace: "    if (this.failure?.error) return Promise.reject(this.failure.error);",
      },
    ],
    says: /看 failure 在不在，不看 error 的真假/,
  },
  {
    checkpoint: "02",
    name: "读过的部分一占多数就丢掉（短流也丢），readIndex 没有跟着减",
    lab: "2.1",
    mutations: [
      {
        file: modelStream,
        find: "      if (this.readIndex >= 1024 && this.readIndex * 2 >= this.buffered.length) {\n        this.buffered.splice(0, this.readIndex);\n        this.readIndex = 0;\n      }\n",
        replace: "      if (this.readIndex * 2 > this.buffered.length) this.buffered.splice(0, this.readIndex);\n",
      },
    ],
    says: /只交付了 2 个就给出 done。.*readIndex 要一起减掉丢掉的个数/,
  },
  // The fresh-learner walks of 00–05 and 10–14 after issue 34's fixes (walk M, chapters 00–02): mistakes that
  // passed verify silently there, or went red with Node's generic "still pending" line instead of the rule.
  {
    checkpoint: "00",
    name: "同一条 assistant 的调用按 id 排序",
    lab: "0.1",
    mutations: [
      {
        file: "packages/pi-core/src/trace.ts",
        find: "      open = toolCallsOf(message);",
        replace: "      open = toolCallsOf(message).sort((a, b) => a.id.localeCompare(b.id));",
      },
    ],
    says: /不按 id 排序：先声明的 call-2 在前/,
  },
  {
    checkpoint: "01",
    name: "type 不分大小写：START 当成 start",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "  switch (value.type) {",
        replace: '  switch (typeof value.type === "string" ? value.type.toLowerCase() : value.type) {',
      },
    ],
    says: /\{"type":"START"\} 应当被拒绝/,
  },
  {
    checkpoint: "01",
    name: "error 的 reason 像 message 一样可省略",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "      if (!ERROR_REASONS.includes(value.reason)) return",
        replace: "      if (value.reason !== undefined && !ERROR_REASONS.includes(value.reason)) return",
      },
    ],
    says: /\{"type":"error"\} 应当被拒绝/,
  },
  {
    checkpoint: "01",
    name: "done 的 reason 可省略",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "      return DONE_REASONS.includes(value.reason) ? undefined",
        replace: "      return value.reason === undefined || DONE_REASONS.includes(value.reason) ? undefined",
      },
    ],
    says: /\{"type":"done"\} 应当被拒绝/,
  },
  {
    checkpoint: "02",
    name: "next() 交付事件的副本",
    lab: "2.1",
    mutations: [
      {
        file: modelStream,
        find: "      const event = this.buffered[this.readIndex] as ModelEvent;",
        replace: "      const event = { ...this.buffered[this.readIndex] } as ModelEvent;",
      },
    ],
    says: /next\(\) 交付的就是 push 进来的那个事件（同一个对象，不是副本）/,
  },
  {
    checkpoint: "02",
    name: "end 不唤醒等待者",
    lab: "2.2",
    mutations: [
      {
        file: modelStream,
        find: "    for (const waiter of this.waiters.splice(0)) waiter.resolve({ value: undefined, done: true });\n",
        replace: "",
      },
    ],
    says: /end 唤醒所有等待者/,
  },
  {
    checkpoint: "02",
    name: "push 用 waiters[0]，不把等待者取出",
    lab: "2.2",
    mutations: [
      {
        file: modelStream,
        find: "    const waiter = this.waiters.shift();",
        replace: "    const waiter = this.waiters[0];",
      },
    ],
    says: /push 把等待者从队列里取出（this\.waiters\.shift\(\)）/,
  },
  // Fresh-learner walks after walks A–M (walks N–R): walk N, chapters 01–02: a legal done reason rejected passed
  // verify silently (only done toolUse was checked), fail leaving waiters pending went red only with Node's generic
  // "still pending" line, and a wrapped error got the line of a different mistake ("而不是正常结束").
  {
    checkpoint: "01",
    name: "done 的 reason 从列表的第二个起才算：done stop 被拒绝",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "      return DONE_REASONS.includes(value.reason) ? undefined",
        replace: "      return DONE_REASONS.indexOf(value.reason) > 0 ? undefined",
      },
    ],
    says: /\{"type":"done","reason":"stop"\} 是合法的 done 事件.*列表里的每一个都接受/,
  },
  {
    checkpoint: "01",
    name: "done 只接受 stop 与 toolUse：done length 被拒绝",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "      return DONE_REASONS.includes(value.reason) ? undefined",
        replace: '      return value.reason === "stop" || value.reason === "toolUse" ? undefined',
      },
    ],
    says: /\{"type":"done","reason":"length"\} 是合法的 done 事件.*列表里的每一个都接受/,
  },
  {
    checkpoint: "01",
    name: "toolcall_delta 的 delta 也 JSON.stringify",
    lab: "1.1",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        // The line's placeholder, without its "$": the only delta written as it is.
        find: "{event.delta}`;",
        replace: "{JSON.stringify(event.delta)}`;",
      },
    ],
    says: /toolcall_delta 的 delta 是工具参数 JSON 的一段，原样写出，不 JSON\.stringify/,
  },
  {
    checkpoint: "02",
    name: "fail 不 reject 等待者",
    lab: "2.2",
    mutations: [
      {
        file: modelStream,
        find: "    for (const waiter of this.waiters.splice(0)) waiter.reject(error);\n",
        replace: "",
      },
    ],
    says: /fail 唤醒所有等待者：正在等待的 next\(\) 以 fail 的那个错误 reject/,
  },
  {
    checkpoint: "02",
    name: "next() 把 fail 的错误包进 new Error 再 reject",
    lab: "2.2",
    mutations: [
      {
        file: modelStream,
        find: "    if (this.failure) return Promise.reject(this.failure.error);",
        replace: "    if (this.failure) return Promise.reject(new Error(String(this.failure.error)));",
      },
    ],
    says: /迭代以 fail 收到的同一个 error reject：next\(\) 返回 Promise\.reject\(this\.failure\.error\)，原样交出那个值/,
  },
  // Fresh-learner walk W, chapter 01 (after walk T's fixes): an empty message refused passed verify silently.
  {
    checkpoint: "01",
    name: "error 的空字符串 message 被拒绝",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: '      return value.message === undefined || typeof value.message === "string"',
        replace:
          '      return value.message === undefined || (typeof value.message === "string" && value.message !== "")',
      },
    ],
    says: /message: "" \} 是合法的 error 事件：空字符串也是 message/,
  },
  // Fresh-learner walks after walks A–M (walks N–R): walk T, chapter 01: an error message of another non-string
  // type (true, {}, an array) and a reason looked up with `in` (an array, an inherited key) passed verify silently;
  // with them the guide's rule that message: undefined is no message, observed for the boundary check too.
  {
    checkpoint: "01",
    name: "error 的 message 只拒绝数字与 null：true、{}、数组通过了边界",
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: '      return value.message === undefined || typeof value.message === "string"',
        replace: '      return !(typeof value.message === "number" || value.message === null)',
      },
    ],
    says: /"message":true\} 应当被拒绝，原因是 "error" message must be a string：message 可以没有，有就必须是字符串/,
  },
  {
    checkpoint: "01",
    name: 'done 的 reason 用 in 查对象的键：["stop"] 与 toString 通过了边界',
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "      return DONE_REASONS.includes(value.reason) ? undefined",
        replace: "      return String(value.reason) in { stop: true, toolUse: true, length: true } ? undefined",
      },
    ],
    says: /\{"type":"done","reason":\["stop"\]\} 应当被拒绝.*reason 必须是列表里的某一个字符串/,
  },
  {
    checkpoint: "01",
    name: 'error 的 reason 用 in 查对象的键：["error"] 与 toString 通过了边界',
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "      if (!ERROR_REASONS.includes(value.reason))",
        replace: "      if (!(String(value.reason) in { error: true, aborted: true }))",
      },
    ],
    says: /\{"type":"error","reason":\["error"\]\} 应当被拒绝.*reason 必须是列表里的某一个字符串/,
  },
  {
    checkpoint: "01",
    name: '边界检查用 "message" in value 判断有没有 message：message: undefined 被拒绝',
    lab: "1.2",
    mutations: [
      {
        file: "packages/pi-core/src/model-event-check.ts",
        find: "      return value.message === undefined ||",
        replace: '      return !("message" in value) ||',
      },
    ],
    says: /message: undefined \} 是合法的 error 事件：message 是 undefined 就是没有 message/,
  },
  // The fresh-learner walk of 03–05 after issue 34's fixes (walk B): mistakes that passed verify silently there,
  // or went red in a later lab.
  {
    checkpoint: "05",
    name: "凭据头的名字区分大小写：X-Api-Key 不算凭据",
    lab: "5.2",
    mutations: [
      { file: redact, find: "/auth|key|token|secret/i.test(name)", replace: "/auth|key|token|secret/.test(name)" },
    ],
    says: /请求头的名字不分大小写/,
  },
  {
    checkpoint: "05",
    name: "查询串里的 sig 参数不算凭据",
    lab: "5.2",
    mutations: [
      {
        file: redact,
        find: "/key|token|secret|pass|auth|sig/i.test(name)",
        replace: "/key|token|secret|pass|auth/i.test(name)",
      },
    ],
    says: /\?sig=… 的签名也是密钥/,
  },
  {
    checkpoint: "05",
    name: "choices: [] 被当成坏形状",
    lab: "5.3",
    mutations: [
      {
        file: chunkShape,
        find: "  if (!Array.isArray(choices)) return",
        replace: "  if (!Array.isArray(choices) || choices.length === 0) return",
      },
    ],
    says: /choices 是空列表 \[\] 的数据块不是坏形状/,
  },
  {
    checkpoint: "05",
    name: "delta 只看 typeof object：数组的 delta 被放过",
    lab: "5.3",
    mutations: [
      {
        file: chunkShape,
        find: "    if (!isObject(delta)) return",
        replace: '    if (typeof delta !== "object") return',
      },
      {
        file: chunkShape,
        find: "    const fragments = delta.tool_calls;",
        replace: "    const fragments = (delta as Record<string, unknown>).tool_calls;",
      },
    ],
    says: /delta 不是对象时说出它：数组也不是对象/,
  },
  {
    checkpoint: "05",
    name: "tool_calls 只看 typeof object：对象的 tool_calls 被放过",
    lab: "5.3",
    mutations: [
      {
        file: chunkShape,
        find: "    if (!Array.isArray(fragments)) return",
        replace: '    if (typeof fragments !== "object") return',
      },
      {
        file: chunkShape,
        find: "    const bad = fragments.findIndex(",
        replace: "    const bad = (fragments as unknown[]).findIndex(",
      },
      {
        file: chunkShape,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "${shown(fragments[bad])}",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        replace: "${shown((fragments as unknown[])[bad])}",
      },
    ],
    says: /delta\.tool_calls 不是数组时说出它/,
  },
  {
    checkpoint: "05",
    name: "content_filter 得到不认识的原因那一句",
    lab: "5.4",
    mutations: [
      {
        file: finishReason,
        find: '    case "content_filter":\n      return { error: \'finish_reason "content_filter": the server\\\'s content filter stopped the answer\' };\n',
        replace: "",
      },
    ],
    says: /content_filter 不是成功：errorMessage 是表里专给它的那一句/,
  },
  {
    checkpoint: "05",
    name: "传输失败时另做一条空的 assistant，已收到的文字丢了",
    lab: "5.4",
    mutations: [
      {
        file: chunkMapper,
        find: '      return this.fail(assistant, "error", end.message);',
        replace:
          '      return this.fail({ role: "assistant", content: [], stopReason: "error", timestamp }, "error", end.message);',
      },
    ],
    says: /断开之前的文字保留：finish\(\) 的 failed 分支（Lab 5\.2 ⑤）/,
  },
  // Fresh-learner walks after walks A–M (walks N–R): chapter 05's walk O, mistakes that passed verify silently
  // there (a nameless call overwriting an earlier bad-arguments problem, a cancel after finish_reason), or went
  // red in their lab with a neighbouring rule's line (usage never read told as swapped fields, a dropped bad call
  // told as endCalls() not run).
  {
    checkpoint: "05",
    name: "只有“没有名字”那一种问题覆盖 problem：参数不是 JSON 的调用在前时被后面没有名字的调用盖掉",
    lab: "5.5",
    mutations: [
      {
        file: assembler,
        find: "        if (problem === undefined) {",
        replace: '        if (problem === undefined || partial.name === "") {',
      },
    ],
    says: /index 0 的参数不是 JSON 时，index 1 没有名字也不覆盖它/,
  },
  {
    checkpoint: "05",
    name: "finish_reason 到过以后的取消当成 done：等末尾 usage 块时取消，以 done stop 结束",
    lab: "5.6",
    mutations: [
      {
        file: chunkMapper,
        find: '    const assistant = this.partial(timestamp);\n    if (end.kind === "aborted") {',
        replace:
          '    const assistant = this.partial(timestamp);\n    if (end.kind === "aborted" && this.finishReason !== undefined) return this.finished(assistant);\n    if (end.kind === "aborted") {',
      },
    ],
    says: /finish_reason 已经到了、还在等末尾的 usage 块时取消，也以 aborted 结束/,
  },
  {
    checkpoint: "05",
    name: "usage 在取 choices[0]、看 finish_reason 到过之后才读：末尾 choices: [] 的 usage 块丢了",
    lab: "5.4",
    mutations: [
      {
        file: chunkMapper,
        find: "    const usage = chunk.usage;\n    if (usage) this.usage = { input: usage.prompt_tokens ?? 0, output: usage.completion_tokens ?? 0 };\n    const choice = chunk.choices?.[0];\n    if (choice === undefined || this.finishReason !== undefined) return;\n",
        replace:
          "    const choice = chunk.choices?.[0];\n    if (choice === undefined || this.finishReason !== undefined) return;\n    const usage = chunk.usage;\n    if (usage) this.usage = { input: usage.prompt_tokens ?? 0, output: usage.completion_tokens ?? 0 };\n",
      },
    ],
    says: /assistant 没有 usage：.*usage 在“有没有 choice”之前读/,
  },
  {
    checkpoint: "05",
    name: "finish() 丢下坏调用：参数解析不了或没有名字的调用不进 assistant",
    lab: "5.5",
    mutations: [
      {
        file: assembler,
        find: "      .map((partial): ToolCall => {",
        replace: "      .flatMap((partial): ToolCall[] => {",
      },
      {
        file: assembler,
        find: '        return { type: "toolCall", id, name: partial.name, arguments: "value" in parsed ? parsed.value : {} };',
        replace:
          '        return "value" in parsed && partial.name !== "" ? [{ type: "toolCall", id, name: partial.name, arguments: parsed.value }] : [];',
      },
    ],
    says: /坏调用仍留在 assistant 里，参数是 \{\}：finish\(\) 把每个调用都放进 calls/,
  },
  // The chapter-14 walk (walk14): mistakes that passed verify silently there.
  {
    checkpoint: "14",
    name: "跨 assistant 只看批次，不看是否还紧跟着：中间隔了用户消息的结果被放过",
    lab: "14.1",
    mutations: [
      {
        file: verdict,
        find: '      if (!inBatch || !batch.has(message.toolCallId)) return "cross-assistant";',
        replace: '      if (!batch.has(message.toolCallId)) return "cross-assistant";',
      },
    ],
    says: /调用与它的结果中间隔了一条用户消息：应为 cross-assistant/,
  },
  {
    checkpoint: "14",
    name: "prepare 不写任务给的会话文件",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "    if (session !== undefined) await writeFile(folder.sessionFile, session);\n",
        replace: "",
      },
    ],
    says: /任务给了 agent\.session 时，prepare 在打开 agent 之前把 task\.agent\.session\(folder\.workspace\) 返回的 JSONL 写进这次运行的 sessionFile/,
  },
  {
    checkpoint: "14",
    name: "在 dispose 与 cleanup 之前就判决",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "  // Lab 14.2 ③ dispose",
        replace:
          "  if (outcome === undefined && observation !== undefined) outcome = judgeRun(observation, task.judge);\n\n  // Lab 14.2 ③ dispose",
      },
    ],
    says: /judge 在 dispose 与 cleanup 之后才判/,
  },
  {
    checkpoint: "14",
    name: "repeat 不检查：0 次或 1.5 次照样运行",
    lab: "14.3",
    mutations: [
      {
        file: suite,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of suite.ts as it is written
        find: "  if (!Number.isInteger(repeat) || repeat < 1) throw new RangeError(`repeat must be a whole number ≥ 1, got ${repeat}`);\n",
        replace: "",
      },
    ],
    says: /repeat 不是 ≥ 1 的整数（0）：runSuite 抛 RangeError/,
  },
  {
    checkpoint: "14",
    name: "总体 pass@1 把所有运行混在一起算",
    lab: "14.3",
    mutations: [
      {
        file: suite,
        find: '    passAt1: mean("passAt1"),',
        replace:
          '    passAt1: reports.length === 0 ? 0 : reports.filter((r) => r.outcome.verdict === "pass").length / reports.length,',
      },
    ],
    says: /总体 pass@1 是各任务的平均/,
  },
  {
    checkpoint: "14",
    name: "assistant 的调用 id 只和有结果的比：重用一个还没有结果的 id 不算 duplicate",
    lab: "14.1",
    mutations: [
      {
        file: verdict,
        find: '        if (seen.has(call.id)) return "duplicate";',
        replace: '        if (answered.has(call.id)) return "duplicate";',
      },
    ],
    says: /后一个 assistant 重用了一个还没有结果的调用 id[^\n]*应为 duplicate/,
  },
  {
    checkpoint: "14",
    name: "计时从 prepare 之前开始",
    lab: "14.2",
    mutations: [
      { file: runner, find: "  let ms = 0;\n", replace: "  let ms = 0;\n  const started = now();\n" },
      { file: runner, find: "    const started = now();\n    try {\n      for", replace: "    try {\n      for" },
    ],
    says: /ms 只量 execute：prepare（打开 agent）之后才用 options\.now 开始计时/,
  },
  {
    checkpoint: "14",
    name: "task.outside 写进了工作区",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "await writeFiles(folder.root, task.outside);",
        replace: "await writeFiles(folder.workspace, task.outside);",
      },
    ],
    says: /task\.outside 写在工作区旁边（folder\.root 下），不在工作区里/,
  },
  {
    checkpoint: "14",
    name: "同一个任务的模型缓存起来，两次运行共用",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "    const counted = countingModel(task.model());",
        replace: "    const counted = countingModel(cachedModel(task));",
      },
      {
        file: runner,
        find: 'const error = (phase: Phase): Outcome => ({ verdict: "error", phase });',
        replace:
          'const error = (phase: Phase): Outcome => ({ verdict: "error", phase });\nconst models = new Map<EvalTask, ReturnType<EvalTask["model"]>>();\nfunction cachedModel(task: EvalTask) {\n  const model = models.get(task) ?? task.model();\n  models.set(task, model);\n  return model;\n}',
      },
    ],
    says: /每次运行调用一次 task\.model\(\)，模型不在两次运行之间共用/,
  },
  // Issue 34's fresh-learner walks of 10–14: mistakes that passed verify silently, or went red with a misleading line.
  {
    checkpoint: "10",
    name: "pathTo 不查成环：链一直长到进程崩溃",
    lab: "10.1",
    mutations: [
      {
        file: sessionTree,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of session-tree.ts as it is written
        find: "    if (seen.has(id)) throw new Error(`从 ${leafId} 往回走又回到了 ${id}：parentId 成环`);\n",
        replace: "",
      },
    ],
    says: /走回到已经走过的 id 就是 parentId 成环/,
  },
  {
    checkpoint: "10",
    name: "每次追加各写各的，不接在唯一的 FIFO 写入者后面",
    lab: "10.5",
    mutations: [
      {
        file: jsonlStore,
        find: "    const written = this.writer.then(async () => {",
        replace: "    const written = (async () => {",
      },
      {
        file: jsonlStore,
        find: "        throw new Error(this.closedBecause);\n      }\n    });\n    this.writer = written",
        replace: "        throw new Error(this.closedBecause);\n      }\n    })();\n    this.writer = written",
      },
    ],
    says: /唯一的 FIFO 写入者：第一条还没写完时第二条不开始写/,
  },
  {
    checkpoint: "11",
    name: "预算跳过放不下的大交互，去拿更早的小的",
    lab: "11.3",
    mutations: [
      {
        file: budget,
        find: "  while (first > 0) {\n    const older = size(first - 1);\n    if (tokens + older > available) break;\n    first -= 1;\n    tokens += older;\n  }",
        replace:
          "  for (let index = count - 2; index >= 0; index -= 1) {\n    const older = size(index);\n    if (tokens + older > available) continue;\n    first = index;\n    tokens += older;\n  }",
      },
    ],
    says: /不跳过大的去拿更早的小的/,
  },
  {
    checkpoint: "11",
    name: "createCompactionEntry 在整条路径上找交互开头，不经 sinceNewestCompaction",
    // Lab 11.4 sees it on a path with a compaction once Lab 11.5's sinceNewestCompaction is done
    // (walk H); before that, its "尚未实现" is the answer there.
    lab: "11.4",
    mutations: [
      {
        file: createEntry,
        find: "  const { messages, entryIds } = sinceNewestCompaction(path);\n",
        replace:
          '  const onPath = path.flatMap((entry) => (entry.type === "message" ? [entry] : []));\n  const messages = onPath.map((entry) => entry.message);\n  const entryIds = onPath.map((entry) => entry.id);\n  void sinceNewestCompaction;\n',
      },
    ],
    says: /更早被总结的部分（最新压缩之前的交互开头）：应当被拒绝，却成功了/,
  },
  {
    checkpoint: "12",
    name: "resourceRoots 漏了存在的全局目录",
    lab: "12.1",
    mutations: [
      {
        file: resourceRootsFile,
        find: '  return [...global, ...ancestors, { kind: "workspace", dir: workspace }];',
        replace: '  return [...ancestors, { kind: "workspace", dir: workspace }];',
      },
    ],
    says: /存在的 globalDir 是一个根/,
  },
  {
    checkpoint: "12",
    name: "技能目录把模板与扩展也写成 <skill>",
    lab: "12.3",
    mutations: [
      {
        file: resourceContext,
        find: '  const listed = skills.filter((skill) => skill.kind === "skill");',
        replace: '  const listed = skills.filter((skill) => skill.kind !== "context");',
      },
    ],
    says: /技能目录只列 kind 为 skill 的资源：模板与扩展不写成 <skill>|技能目录只在有技能时才写：只有模板与扩展（没有 kind 为 skill 的资源）/,
  },
  {
    checkpoint: "12",
    name: "技能目录里的 <skill> 条目之间空一行",
    lab: "12.3",
    mutations: [
      {
        file: resourceContext,
        find: "        ...lines,\n",
        replace: '        lines.join("\\n\\n"),\n',
      },
    ],
    says: /每个 <skill> 条目，各行之间一个换行/,
  },
  {
    checkpoint: "13",
    name: "JSON 模式第一次写失败之后还接着写",
    lab: "13.4",
    mutations: [{ file: modes, find: "    if (failed !== undefined) return;\n", replace: "" }],
    says: /json：只记下第一个写错误，之后不再写/,
  },
  {
    checkpoint: "13",
    name: "recordUpTo 差一：跳过一条消息",
    lab: "13.3",
    mutations: [{ file: runtime, find: "transcript.slice(recorded))", replace: "transcript.slice(recorded + 1))" }],
    says: /提示结束时只写了 5 个条目，应为 6 个：transcript 里每条消息恰好记录一次/,
  },
  {
    checkpoint: "13",
    name: "recordUpTo 差一：同一条消息记两次",
    lab: "13.3",
    mutations: [{ file: runtime, find: "transcript.slice(recorded))", replace: "transcript.slice(recorded - 1))" }],
    says: /6 个条目之后又来了一个：transcript 里每条消息恰好记录一次/,
  },
  {
    checkpoint: "13",
    name: "JSON 模式把写错误包装成新的错误",
    lab: "13.4",
    mutations: [
      {
        file: modes,
        find: "      failed = { error };",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
        replace: "      failed = { error: new Error(`JSON 输出失败：${String(error)}`) };",
      },
    ],
    says: /json：写错误原样传出：拒绝的是 write 抛出的那个错误对象本身，不包装成新的错误/,
  },
  // Issue 34's second fresh-learner walk of 10–14 (walk1014): mistakes that still passed verify silently.
  {
    checkpoint: "10",
    name: "pathTo 返回条目本身，不复制",
    lab: "10.1",
    mutations: [
      { file: sessionTree, find: "  return copyEntries(chain.reverse());", replace: "  return chain.reverse();" },
    ],
    says: /返回的是深拷贝（copyEntries）：改动它不影响条目/,
  },
  {
    checkpoint: "10",
    name: "先 push 再查父条目：失败的追加留下了条目",
    lab: "10.3",
    mutations: [
      {
        file: "packages/pi-coding-agent/src/session/memory-store.ts",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of memory-store.ts as they are written
        find: "    if (copy.parentId !== null && !this.ids.has(copy.parentId)) {\n      throw new Error(`条目 ${copy.id} 的父条目 ${copy.parentId} 不在会话里：这次追加被拒绝`);\n    }\n    this.committed.push(copy);\n    this.ids.add(copy.id);",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          "    this.committed.push(copy);\n    this.ids.add(copy.id);\n    if (copy.parentId !== null && !this.ids.has(copy.parentId)) {\n      throw new Error(`条目 ${copy.id} 的父条目 ${copy.parentId} 不在会话里：这次追加被拒绝`);\n    }",
      },
    ],
    says: /失败的追加什么也不留下：查重复 id 与缺父条目都在 push 之前/,
  },
  {
    checkpoint: "10",
    name: "只跳过空串，只有空白的行当坏行",
    lab: "10.4",
    mutations: [
      {
        file: "packages/pi-coding-agent/src/session/jsonl-recovery.ts",
        find: '    if (line.trim() === "") continue;',
        replace: '    if (line === "") continue;',
      },
    ],
    says: /空行（包括只有空白的行，" {3}"）忽略，不当作坏行/,
  },
  {
    checkpoint: "10",
    name: "label 条目必须带 label 字段（清除书签的 label 被拒绝）",
    lab: "10.2",
    mutations: [
      {
        file: parseEntryFile,
        find: '      if (entry.label !== undefined) requireString(entry, "label");',
        replace: '      requireString(entry, "label");',
      },
    ],
    says: /没有 label 字段的 label 条目是清除书签/,
  },
  {
    checkpoint: "10",
    name: "排在失败之后的追加轮到时不看 closedBecause，照样去写",
    lab: "10.5",
    mutations: [
      {
        file: jsonlStore,
        find: "    const written = this.writer.then(async () => {\n      if (this.closedBecause !== undefined) throw new Error(this.closedBecause);\n",
        replace: "    const written = this.writer.then(async () => {\n",
      },
    ],
    says: /排在失败之后的追加轮到时看到 closedBecause 就 reject，不再去写/,
  },
  {
    checkpoint: "10",
    name: "只有 user 消息补齐这一批，下一条 assistant 不补",
    lab: "10.6",
    mutations: [
      {
        file: sessionContext,
        find: "    closeBatch();\n    messages.push(message);",
        replace: '    if (message.role === "user") closeBatch();\n    messages.push(message);',
      },
    ],
    says: /下一条 assistant（不只是 user）到来时也先补齐这一批/,
  },
  {
    checkpoint: "10",
    name: "不在这一批里的结果被收下（splice(-1) 去掉了别的调用）",
    lab: "10.6",
    mutations: [
      {
        file: sessionContext,
        find: "      if (open === undefined || index === -1) {",
        replace: "      if (open === undefined) {",
      },
    ],
    says: /toolResult 必须回答这一批里还没回答的某个调用/,
  },
  {
    checkpoint: "11",
    name: "details 里的未知字段被收下",
    lab: "11.1",
    mutations: [
      {
        file: compactionSummary,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of summary.ts as it is written
        find: "    if (isObject(entry.details)) onlyKnown(entry.details, DETAILS_FIELDS, `${where} 的 details`);\n",
        replace: "",
      },
    ],
    says: /details 有未知字段（details 只认 readFiles、modifiedFiles 与 structured）/,
  },
  {
    checkpoint: "11",
    name: "fromHook 不查是不是布尔值",
    lab: "11.1",
    mutations: [
      {
        file: compactionSummary,
        find: '  if (entry.fromHook !== undefined && typeof entry.fromHook !== "boolean") {',
        replace: '  if (entry.fromHook !== undefined && typeof entry.fromHook === "symbol") {',
      },
      {
        file: compactionSummary,
        find: "  if (entry.fromHook !== undefined) parsed.fromHook = entry.fromHook;",
        replace: "  if (entry.fromHook !== undefined) parsed.fromHook = entry.fromHook as boolean;",
      },
    ],
    says: /fromHook 不是布尔值（fromHook 没有或是布尔值）/,
  },
  {
    checkpoint: "11",
    name: "firstKeptEntryId 在整条路径上找，压缩之后的条目也收下",
    lab: "11.5",
    mutations: [
      {
        file: compactionContext,
        find: "  const from = path.findIndex((entry, index) => index < at && entry.id === compaction.firstKeptEntryId);",
        replace: "  const from = path.findIndex((entry) => entry.id === compaction.firstKeptEntryId);",
      },
    ],
    says: /firstKeptEntryId 只在这个压缩之前的位置找/,
  },
  {
    checkpoint: "12",
    name: "全局目录按给的路径用，不换成真实路径",
    lab: "12.1",
    mutations: [
      {
        file: resourceRootsFile,
        find: '      ? [{ kind: "global", dir: realDir(options.globalDir, "全局目录") }]',
        replace: '      ? [{ kind: "global", dir: path.resolve(options.globalDir) }]',
      },
    ],
    says: /经符号链接给出的全局目录也用它的真实路径/,
  },
  {
    checkpoint: "12",
    name: "技能的 name 不限 64 个字符",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: "  if (!SKILL_NAME.test(name) || name.length > 64) {",
        replace: "  if (!SKILL_NAME.test(name)) {",
      },
    ],
    says: /name 最多 64 个字符/,
  },
  {
    checkpoint: "12",
    name: "前置元数据里缩进的行也当字段",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: "    const match = /^([A-Za-z][\\w-]*):\\s*(.*)$/.exec(line);",
        replace: "    const match = /^\\s*([A-Za-z][\\w-]*):\\s*(.*)$/.exec(line);",
      },
    ],
    says: /只有顶格的 key: value 是字段/,
  },
  {
    checkpoint: "12",
    name: "SKILL.md 直接按 skill.path 读，不经技能目录的边界",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: "  const skillFile = await insideSkill(root, path.basename(skill.path), skill.name);",
        replace: "  const skillFile = skill.path;",
      },
    ],
    says: /SKILL\.md 本身也经 insideSkill\(\)（第 08 章的边界）换成真实路径再读/,
  },
  {
    checkpoint: "12",
    name: "模板两遍替换：先 $N，再对整个结果替换 $@",
    lab: "12.3",
    mutations: [
      {
        file: templates,
        find: '  const rendered = source.replace(/\\$([1-9@$])/g, (_, key: string) => {\n    if (key === "$") return "$";\n    if (key === "@") return args.join(" ");\n    return args[Number(key) - 1] ?? "";\n  });',
        replace:
          '  const rendered = source\n    .replace(/\\$([1-9$])/g, (_, key: string) => (key === "$" ? "$" : (args[Number(key) - 1] ?? "")))\n    .replaceAll("$@", () => args.join(" "));',
      },
    ],
    says: /一遍扫描：替换进去的参数“\$@”不再被当成占位符/,
  },
  {
    checkpoint: "12",
    name: "上下文文件的内容不 trim",
    lab: "12.3",
    mutations: [
      {
        file: resourceContext,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of context.ts as it is written
        find: "\\n${file.content.trim()}\\n</context_file>",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
        replace: "\\n${file.content}\\n</context_file>",
      },
    ],
    says: /上下文文件的内容先 trim\(\)/,
  },
  {
    checkpoint: "12",
    name: "工具名只和已有的比，不查扩展自己注册了两次",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "  const taken = names.find((name, index) => registry.get(name) !== undefined || names.indexOf(name) !== index);",
        replace: "  const taken = names.find((name) => registry.get(name) !== undefined);",
      },
    ],
    says: /一个坏文件从不让 loadExtensions 抛出：.*stage\(\) 先查工具名/,
  },
  {
    checkpoint: "12",
    name: "trusted() 返回真值就算信任",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "      trusted = (await options.trusted(file)) === true;",
        replace: "      trusted = Boolean(await options.trusted(file));",
      },
    ],
    says: /只有 trusted\(\) 恰好返回 true 才算信任/,
  },
  {
    checkpoint: "14",
    name: "调用 id 只在那个调用还没有结果时才算重复",
    lab: "14.1",
    mutations: [
      {
        file: verdict,
        find: '        if (seen.has(call.id)) return "duplicate";',
        replace: '        if (seen.has(call.id) && !answered.has(call.id)) return "duplicate";',
      },
    ],
    says: /后一个 assistant 重用了一个已经有结果的调用 id，之后没有结果/,
  },
  {
    checkpoint: "14",
    name: "onReport 在全部运行完之后才一起调用",
    lab: "14.3",
    mutations: [
      {
        file: suite,
        find: "      reports.push(report);\n      options.onReport?.(report);\n    }\n  }\n  return reports;",
        replace:
          "      reports.push(report);\n    }\n  }\n  for (const report of reports) options.onReport?.(report);\n  return reports;",
      },
    ],
    says: /onReport 在每次运行之后、下一次开始之前调用/,
  },
  // Issue 34's third fresh-learner walk of 10–14: mistakes that still passed verify silently.
  {
    checkpoint: "12",
    name: "不限时（Infinity）也设计时器：setTimeout 1 ms 后就拒绝",
    lab: "12.5",
    mutations: [{ file: toolHooks, find: "Number.isFinite(limit)\n    ?", replace: "true\n    ?" }],
    says: /beforeTimeoutMs 为 Infinity 表示不限时：晚到的允许照样算/,
  },
  {
    checkpoint: "12",
    name: "已经中止的信号不看，等钩子答复",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        find: "  if (context.signal?.aborted) onAbort();\n  else context.signal",
        replace: "  context.signal",
      },
    ],
    says: /已经中止的信号立刻算：不等钩子答复，调用被拒绝/,
  },
  {
    checkpoint: "12",
    name: "after 钩子不 await",
    lab: "12.5",
    mutations: [{ file: toolHooks, find: "await hook(call, output);", replace: "void hook(call, output);" }],
    says: /after 钩子要 await：异步钩子的拒绝也只是一行诊断/,
  },
  {
    checkpoint: "12",
    name: "决定之后不清掉计时器",
    lab: "12.5",
    mutations: [{ file: toolHooks, find: "    clearTimeout(timer);\n", replace: "" }],
    says: /决定之后清掉计时器（clearTimeout）：一个悬着的计时器会让进程不退出/,
  },
  {
    checkpoint: "12",
    name: "决定之后不移除 abort 监听",
    lab: "12.5",
    mutations: [{ file: toolHooks, find: '    context.signal?.removeEventListener("abort", onAbort);\n', replace: "" }],
    says: /决定之后移除 abort 监听：信号上不留下它/,
  },
  {
    checkpoint: "12",
    name: "钩子拿不到 { signal }",
    lab: "12.5",
    mutations: [{ file: toolHooks, find: "hook(call, { signal: context.signal })", replace: "hook(call, {})" }],
    says: /钩子拿到 \{ signal: context\.signal \}：就是这次调用的中止信号/,
  },
  {
    checkpoint: "12",
    name: "SKILL.md 开头的 BOM 不去掉",
    lab: "12.2",
    mutations: [{ file: skills, find: 'text.replace(/^\\uFEFF/, "").split', replace: "text.split" }],
    says: /去掉开头的 BOM：带 BOM 保存的 SKILL\.md 也以 --- 开头/,
  },
  {
    checkpoint: "12",
    name: "SKILL.md 只按 \\n 分行（CRLF 的被拒绝）",
    lab: "12.2",
    mutations: [{ file: skills, find: ".split(/\\r?\\n/)", replace: '.split("\\n")' }],
    says: /按 \\r\?\\n 分行：Windows 上写的（CRLF）SKILL\.md 照样能读/,
  },
  {
    checkpoint: "12",
    name: "资源上下文的段之间只有一个换行",
    lab: "12.3",
    mutations: [
      { file: resourceContext, find: 'return sections.join("\\n\\n");', replace: 'return sections.join("\\n");' },
    ],
    says: /段与段之间空一行（"\\n\\n"）：每个 <context_file> 与技能目录各是一段/,
  },
  {
    checkpoint: "13",
    name: "条目追加时就进 persisted，不经 queued",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "    queued.push(entry);\n    writes = writes.then(async () => {",
        replace: "    persisted.push(entry);\n    writes = writes.then(async () => {",
      },
      {
        file: runtime,
        find: "        persisted.push(queued.shift() as SessionEntry);\n",
        replace: "",
      },
    ],
    says: /写完才从 queued 移到 persisted：persisted 只有已经落盘的/,
  },
  {
    checkpoint: "13",
    name: "运行中再提示不拒绝",
    lab: "13.3",
    mutations: [{ file: runtime, find: "    if (running !== undefined) {", replace: "    if (running === null) {" }],
    says: /一个提示还在运行时再提示：立刻一行拒绝/,
  },
  {
    checkpoint: "13",
    name: "只在成功时 await writes：engine 拒绝时提示先拒绝",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "      recordUpTo(result.messages);\n    } finally {\n      setSystemPrompt(base);\n      await writes;",
        replace:
          "      recordUpTo(result.messages);\n      await writes;\n    } finally {\n      setSystemPrompt(base);",
      },
    ],
    says: /无论成败（finally）都 await writes：engine\.prompt\(\) 拒绝时/,
  },
  {
    checkpoint: "13",
    name: "flush() 也等正在运行的提示",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "    async flush() {\n      await writes;",
        replace:
          "    async flush() {\n      const pending = writes;\n      await running?.catch(() => undefined);\n      await pending;",
      },
    ],
    says: /flush\(\) 只等调用那一刻排着的写入：它们写完就 resolve，不等正在运行的提示/,
  },
  {
    checkpoint: "13",
    name: "flush() 先 await 再读 writes",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "    async flush() {\n      await writes;",
        replace: "    async flush() {\n      await running?.catch(() => undefined);\n      await writes;",
      },
    ],
    says: /flush\(\) 只等调用那一刻排着的写入（同步读 writes，在任何 await 之前）/,
  },
  {
    checkpoint: "13",
    name: "JSON 模式在最后一个提示之后才看写错误",
    lab: "13.4",
    mutations: [
      {
        file: modes,
        find: "      last = await runtime.prompt(prompt);\n      if (failed !== undefined) throw failed.error;\n    }",
        replace: "      last = await runtime.prompt(prompt);\n    }\n    if (failed !== undefined) throw failed.error;",
      },
    ],
    says: /json：每个 prompt 之后有记下的写错误就原样抛出它/,
  },
  {
    checkpoint: "13",
    name: "恢复的路径按文件顺序取到叶为止，不用 pathTo",
    lab: "13.1",
    mutations: [
      {
        file: openRuntime,
        find: "structuredClone(session.pathTo(leaf))",
        replace:
          "structuredClone(session.entries().slice(0, session.entries().findIndex((entry) => entry.id === leaf) + 1))",
      },
    ],
    says: /恢复的是 session\.pathTo\(leaf\)：从叶沿 parentId 回到根的那条路径/,
  },
  // The fresh-learner walks of 00–05 and 10–14 after issue 34's fixes (walk D, 13–14): silent before.
  {
    checkpoint: "13",
    name: "refusal() 先查 closed 再查 poison：毒化后又 dispose() 的 Runtime 说的是“已经 dispose()”",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: '    if (poison !== undefined) return poison;\n    if (closed) return new RuntimeError("这个 Runtime 已经 dispose()：不再接受提示；要继续，在会话上重新打开一个。");\n',
        replace:
          '    if (closed) return new RuntimeError("这个 Runtime 已经 dispose()：不再接受提示；要继续，在会话上重新打开一个。");\n    if (poison !== undefined) return poison;\n',
      },
    ],
    says: /refusal\(\) 先 poison 再 closed：毒化之后又 dispose\(\) 的 Runtime 仍以 poison 本身拒绝/,
  },
  {
    checkpoint: "13",
    name: "refusal() 先查 running 再查 closed：运行中 dispose() 之后的提示被叫去等",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: '    if (closed) return new RuntimeError("这个 Runtime 已经 dispose()：不再接受提示；要继续，在会话上重新打开一个。");\n    if (running !== undefined) {\n      return new RuntimeError("上一个提示还没有结束：用 steer() 把这一行送进正在运行的一轮，或等它结束再提示。");\n    }\n',
        replace:
          '    if (running !== undefined) {\n      return new RuntimeError("上一个提示还没有结束：用 steer() 把这一行送进正在运行的一轮，或等它结束再提示。");\n    }\n    if (closed) return new RuntimeError("这个 Runtime 已经 dispose()：不再接受提示；要继续，在会话上重新打开一个。");\n',
      },
    ],
    says: /refusal\(\) 先 closed 再 running：dispose\(\) 之后的提示被告知已经 dispose\(\)/,
  },
  {
    checkpoint: "13",
    name: "毒化的原因是 String(error)：多行的存储错误给出多行的 RuntimeError",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: '        const cause = String((error as Error)?.message ?? error).split("\\n")[0];',
        replace: "        const cause = String(error);",
      },
    ],
    says: /写入失败是一行 RuntimeError：括号里只放存储错误消息（error\.message）的第一行/,
  },
  {
    checkpoint: "13",
    name: "selectMode 先 trim 再转小写：PRINT 也被当成 print",
    lab: "13.4",
    mutations: [
      {
        file: modes,
        find: "  if (!Object.hasOwn(MODES, name)) {",
        replace: "  const key = name.trim().toLowerCase();\n  if (!Object.hasOwn(MODES, key)) {",
      },
      { file: modes, find: "  return MODES[name as ModeName];", replace: "  return MODES[key as ModeName];" },
    ],
    says: /只认 MODES 自己的键，名字原样比较，不 trim、不改大小写/,
  },
  {
    checkpoint: "11",
    name: "parseCompactionEntry 返回 entry 本身",
    lab: "11.1",
    mutations: [
      {
        file: compactionSummary,
        find: "  return parsed;\n}",
        replace: "  return entry as unknown as CompactionEntry;\n}",
      },
    ],
    says: /parseCompactionEntry 组装一个新的 CompactionEntry，不返回 entry 本身/,
  },
  {
    checkpoint: "11",
    name: "answered 不随每一批重新开始（重用 call_0 的 provider 被拒）",
    lab: "11.2",
    mutations: [{ file: compactionInteractions, find: "      answered = new Set();\n", replace: "" }],
    says: /每个 assistant 开始新的一批（open 与 answered 都重新开始）/,
  },
  {
    checkpoint: "11",
    name: "reserveTokens 不经 tokenCount() 检查",
    lab: "11.3",
    mutations: [
      {
        file: budget,
        find: 'tokenCount(budget.reserveTokens, "reserveTokens")',
        replace: "(budget.reserveTokens as number)",
      },
    ],
    says: /每个数先用 tokenCount\(\) 检查：reserveTokens 为 -1/,
  },
  {
    checkpoint: "11",
    name: "historyBudget 什么数都不检查",
    lab: "11.3",
    mutations: [
      { file: budget, find: 'tokenCount(budget.contextWindow, "contextWindow")', replace: "budget.contextWindow" },
      {
        file: budget,
        find: 'tokenCount(budget.systemPromptTokens, "systemPromptTokens")',
        replace: "budget.systemPromptTokens",
      },
      { file: budget, find: 'tokenCount(budget.reserveTokens, "reserveTokens")', replace: "budget.reserveTokens" },
      { file: budget, find: 'tokenCount(margin, "safetyMarginTokens")', replace: "margin" },
    ],
    says: /每个数先用 tokenCount\(\) 检查：contextWindow 为 -1/,
  },
  {
    checkpoint: "10",
    name: "recoverSession 不用传进来的 read，总是 checkEntry",
    lab: "10.4",
    mutations: [
      {
        file: "packages/pi-coding-agent/src/session/jsonl-recovery.ts",
        find: "      else entries.push(read(value));",
        replace: "      else entries.push(checkEntry(value));",
      },
    ],
    says: /条目用 read（默认 checkEntry\(\)）检查：传进来的 read 读每个已提交的条目/,
  },
  {
    checkpoint: "10",
    name: "JsonlSessionStore.open 不把 read 交给 recoverSession",
    lab: "10.5",
    mutations: [
      {
        file: jsonlStore,
        find: '    const recovered = recoverSession(await readFile(file, "utf8"), file, read);',
        replace: '    const recovered = recoverSession(await readFile(file, "utf8"), file);',
      },
    ],
    says: /JsonlSessionStore\.open\(file, read\) 把 read 交给 recoverSession\(\)/,
  },
  {
    checkpoint: "10",
    name: "写入失败以 Node 的原始错误 reject，不是 writeFailureReason",
    lab: "10.5",
    mutations: [
      {
        file: jsonlStore,
        find: "        this.closedBecause = writeFailureReason(this.file, error);\n        throw new Error(this.closedBecause);",
        replace: "        this.closedBecause = writeFailureReason(this.file, error);\n        throw error;",
      },
    ],
    says: /写入失败以一行说明（writeFailureReason\(\)：文件与错误码）reject，之后排队的追加都以同一行 reject/,
  },
  {
    checkpoint: "10",
    name: "缺的结果倒序补上",
    lab: "10.6",
    mutations: [
      {
        file: sessionContext,
        find: "for (const call of open.calls) messages.push(interruptedResult(call, open.assistant));",
        replace:
          "for (const call of [...open.calls].reverse()) messages.push(interruptedResult(call, open.assistant));",
      },
    ],
    says: /还没回答的调用按声明顺序各补一条：先 call-2 再 call-3/,
  },
  {
    checkpoint: "10",
    name: "后面章节的类型不先查，报成未知类型",
    lab: "10.2",
    mutations: [
      {
        file: parseEntryFile,
        find: "  if (LATER_ENTRY_TYPES.has(type)) {\n",
        replace: '  if (LATER_ENTRY_TYPES.has(type) && type === "never") {\n',
      },
    ],
    says: /后面章节的类型（LATER_ENTRY_TYPES）先查：点名它属于后面的章节，而不是当作未知类型/,
  },
  {
    checkpoint: "14",
    name: "unmet 里的项不查是不是字符串",
    lab: "14.1",
    mutations: [
      {
        file: verdict,
        find: '  if (!unmet.every((label) => typeof label === "string")) return undefined;\n',
        replace: "",
      },
    ],
    says: /unmet 是字符串数组：\{"success":false,"unmet":\[1,\{\}\]\} 不是一个判决/,
  },
  {
    checkpoint: "14",
    name: "先比工具名再查 cross-assistant",
    lab: "14.1",
    mutations: [
      {
        file: verdict,
        find: '      if (!inBatch || !batch.has(message.toolCallId)) return "cross-assistant";\n      if (name !== message.toolName) return "inconsistent";\n',
        replace:
          '      if (name !== message.toolName) return "inconsistent";\n      if (!inBatch || !batch.has(message.toolCallId)) return "cross-assistant";\n',
      },
    ],
    says: /工具名也不同（先查 cross-assistant，再比工具名）：应为 cross-assistant/,
  },
  {
    checkpoint: "14",
    name: "套件轮流跑各任务，不是每个任务连续 repeat 次",
    lab: "14.3",
    mutations: [
      {
        file: suite,
        find: "  for (const task of tasks) {\n    for (let run = 0; run < repeat; run += 1) {",
        replace: "  for (let run = 0; run < repeat; run += 1) {\n    for (const task of tasks) {",
      },
    ],
    says: /每个任务连续 repeat 次（task 1 × K，再 task 2 × K）/,
  },
  // The fresh-learner walks of 00–05 and 10–14 after issue 34's fixes (walk D, 13–14): silent or misleading before.
  {
    checkpoint: "14",
    name: "同一个 assistant 里的调用 id 等整条走完才记下：一条消息里的两个 c1 不算 duplicate",
    lab: "14.1",
    mutations: [
      {
        file: verdict,
        find: '        if (seen.has(call.id)) return "duplicate";\n        seen.set(call.id, call.name);\n        batch.add(call.id);\n      }\n',
        replace:
          '        if (seen.has(call.id)) return "duplicate";\n        batch.add(call.id);\n      }\n      for (const call of toolCallsOf(message)) seen.set(call.id, call.name);\n',
      },
    ],
    says: /同一个 assistant 里两个调用用了同一个 id[^\n]*应为 duplicate/,
  },
  {
    checkpoint: "14",
    name: "没有调用的 assistant 不结束上一批：隔着它的结果被放过",
    lab: "14.1",
    mutations: [
      {
        file: verdict,
        find: "      continue;\n    }\n    inBatch = false;\n",
        replace:
          '      continue;\n    }\n    if (message.role === "assistant" && toolCallsOf(message).length === 0) continue;\n    inBatch = false;\n',
      },
    ],
    says: /中间隔了一条没有调用的 assistant[^\n]*应为 cross-assistant/,
  },
  {
    checkpoint: "14",
    name: "空的活动路径不算 inconsistent",
    lab: "14.1",
    mutations: [
      {
        file: verdict,
        find: '  if (messages[0]?.role !== "user") return "inconsistent";',
        replace: '  if (messages.length > 0 && messages[0]?.role !== "user") return "inconsistent";',
      },
    ],
    says: /空的活动路径（没有第一条消息，也就不以用户消息开头）：应为 inconsistent/,
  },
  {
    checkpoint: "14",
    name: "只冻结 messages：judge 拿到的 files 改得动",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "        observation = frozenCopy({ messages, files: await readDeclared(folder.workspace, task.declares) });",
        replace:
          "        observation = { messages: frozenCopy(messages), files: await readDeclared(folder.workspace, task.declares) };",
      },
    ],
    says: /judge 改不动它看到的东西：它拿到的是 frozenCopy\(\)，深拷贝、每一层冻结/,
  },
  {
    checkpoint: "14",
    name: "collect 用 structuredClone 代替 frozenCopy：深拷贝了，却没有冻结",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "        observation = frozenCopy({ messages, files: await readDeclared(folder.workspace, task.declares) });",
        replace:
          "        observation = structuredClone({ messages, files: await readDeclared(folder.workspace, task.declares) });",
      },
    ],
    says: /judge 改不动它看到的东西：它拿到的是 frozenCopy\(\)，深拷贝、每一层冻结/,
  },
  {
    checkpoint: "14",
    name: "agent 拿到的是没包上计数的模型",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "    const counted = countingModel(task.model());\n",
        replace: "    const model = task.model();\n    const counted = countingModel(model);\n",
      },
      { file: runner, find: "      model: counted.model,\n", replace: "      model,\n" },
    ],
    says: /agent 拿到的是 countingModel\(task\.model\(\)\) 包住的那个模型/,
  },
  {
    checkpoint: "14",
    name: "cleanup 不管 options.removeFolder，总用 removeRunFolder",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "      await (options.removeFolder ?? removeRunFolder)(folder);",
        replace: "      await removeRunFolder(folder);",
      },
    ],
    says: /cleanup 用给了的 options\.removeFolder 删这次运行的文件夹/,
  },
  {
    checkpoint: "14",
    name: "套件用 Promise.all 一起跑，每次运行结束就报告",
    lab: "14.3",
    mutations: [
      {
        file: suite,
        find: "  const reports: CaseReport[] = [];\n  for (const task of tasks) {\n    for (let run = 0; run < repeat; run += 1) {\n      const report = await runCase(task, agent, options);\n      reports.push(report);\n      options.onReport?.(report);\n    }\n  }\n  return reports;",
        replace:
          "  const runs = tasks.flatMap((task) => Array.from({ length: repeat }, () => task));\n  return Promise.all(\n    runs.map((task) =>\n      runCase(task, agent, options).then((report) => {\n        options.onReport?.(report);\n        return report;\n      }),\n    ),\n  );",
      },
    ],
    says: /同一时刻只有一次运行：串行，一次 await 完再开始下一次，不是 Promise\.all/,
  },
  {
    checkpoint: "14",
    name: "summarise() 按任务名排序，不按第一次出现的顺序",
    lab: "14.3",
    mutations: [
      {
        file: suite,
        find: "  const tasks = [...byTask].map(([task, runs]): TaskSummary => {",
        replace:
          "  const tasks = [...byTask].sort(([a], [b]) => a.localeCompare(b)).map(([task, runs]): TaskSummary => {",
      },
    ],
    says: /summarise\(\) 按任务第一次出现的顺序列出/,
  },
  {
    checkpoint: "14",
    name: "总体的 tokens 取各任务的平均，不是总和",
    lab: "14.3",
    mutations: [
      {
        file: suite,
        find: "    tokens: tasks.reduce((total, task) => total + task.tokens, 0),",
        replace:
          "    tokens: tasks.length === 0 ? 0 : tasks.reduce((total, task) => total + task.tokens, 0) / tasks.length,",
      },
    ],
    says: /总体的 tokens 与 ms 是各任务的总和/,
  },
  // The fresh-learner walks of 00–05 and 10–14 after issue 34's fixes (walk G, 13–14): silent or misleading before.
  {
    checkpoint: "13",
    name: "上下文适配器把工具 structuredClone 之后才传给内层模型",
    lab: "13.2",
    mutations: [
      {
        file: contextAdapter,
        find: "  const sent: ModelRequest = { messages: context.messages, tools: request.tools };",
        replace: "  const sent: ModelRequest = { messages: context.messages, tools: structuredClone(request.tools) };",
      },
    ],
    says: /工具原样传过去：内层模型拿到的就是 request\.tools 这个数组，不是副本/,
  },
  {
    checkpoint: "13",
    name: "dispose() 直接 await running：提示自己的失败让 dispose() 拒绝",
    lab: "13.3",
    mutations: [
      { file: runtime, find: "      await running?.catch(() => undefined);\n", replace: "      await running;\n" },
    ],
    says: /dispose\(\) 等正在运行的提示结束，但它的失败不在这里报/,
  },
  {
    checkpoint: "13",
    name: "JSON 模式每个提示订阅一次、提示之后取消",
    lab: "13.4",
    mutations: [
      {
        file: modes,
        find: "  const unsubscribe = runtime.subscribe((event: RuntimeEvent) => {\n",
        replace: "  const listener = (event: RuntimeEvent) => {\n",
      },
      {
        file: modes,
        find: "      failed = { error };\n    }\n  });\n",
        replace: "      failed = { error };\n    }\n  };\n",
      },
      {
        file: modes,
        find: "  try {\n    for (const prompt of io.prompts ?? []) {\n      last = await runtime.prompt(prompt);\n      if (failed !== undefined) throw failed.error;\n    }\n  } finally {\n    unsubscribe();\n  }\n",
        replace:
          "  for (const prompt of io.prompts ?? []) {\n    const unsubscribe = runtime.subscribe(listener);\n    try {\n      last = await runtime.prompt(prompt);\n    } finally {\n      unsubscribe();\n    }\n    if (failed !== undefined) throw failed.error;\n  }\n",
      },
    ],
    says: /JSON 模式在所有提示之前只订阅一个监听器/,
  },
  {
    checkpoint: "13",
    name: "控制面的 leafId 返回打开时的 options.leaf，不取 core.leafId",
    lab: "13.3",
    mutations: [
      { file: openRuntime, find: "    leafId: core.leafId,\n", replace: "    leafId: () => options.leaf ?? null,\n" },
    ],
    says: /open\.ts（Lab 13\.1 ②）的 leafId 取 core 上的同名成员 core\.leafId/,
  },
  {
    checkpoint: "14",
    name: "结果先查 cross-assistant 再查已有结果：下一个 assistant 之后的第二条结果成了 cross-assistant",
    lab: "14.1",
    mutations: [
      {
        file: verdict,
        find: '      if (answered.has(message.toolCallId)) return "duplicate";\n      if (name === undefined) return "inconsistent";\n      if (!inBatch || !batch.has(message.toolCallId)) return "cross-assistant";\n',
        replace:
          '      if (name === undefined) return "inconsistent";\n      if (!inBatch || !batch.has(message.toolCallId)) return "cross-assistant";\n      if (answered.has(message.toolCallId)) return "duplicate";\n',
      },
    ],
    says: /一个调用在下一个 assistant 之后又来了第二条结果（先查已有结果：duplicate 先于 cross-assistant）：应为 duplicate/,
  },
  {
    checkpoint: "14",
    name: "execute 用 Promise.all 一起发出所有提示",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "      for (const prompt of task.prompts) await run.prompt(prompt);\n",
        replace:
          "      const open = run;\n      await Promise.all(task.prompts.map((prompt) => open.prompt(prompt)));\n",
      },
    ],
    says: /execute 逐个提示：按顺序 await run\.prompt\(\) 每个提示，前一个结束才发下一个/,
  },
  {
    checkpoint: "14",
    name: "计数在 prepare 之后存成快照，报告里永远是 0",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "    counts = counted.counts;\n",
        replace: "    const snapshot = counted.counts();\n    counts = () => snapshot;\n",
      },
    ],
    says: /计数在 execute 之后才读：报告时调用 counted\.counts\(\)，不是 prepare 之后存下的快照/,
  },
  {
    checkpoint: "14",
    name: "task.model() 在 prepare 的 try 之外调用：它抛错时 runCase 拒绝",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "  // Lab 14.2 ① prepare: a new folder, the fixture, the task's fresh model (counted), the agent.\n  try {\n",
        replace:
          "  const fresh = task.model();\n  // Lab 14.2 ① prepare: a new folder, the fixture, the task's fresh model (counted), the agent.\n  try {\n",
      },
      {
        file: runner,
        find: "    const counted = countingModel(task.model());\n",
        replace: "    const counted = countingModel(fresh);\n",
      },
    ],
    says: /runCase 不抛出：prepare 的任何一步（包括 task\.model\(\)）抛错，结果都是 prepare 阶段/,
  },
  {
    checkpoint: "14",
    name: "execute 失败时 ms 记成 0",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: '      for (const prompt of task.prompts) await run.prompt(prompt);\n    } catch {\n      outcome = error("execute");\n    }\n    ms = now() - started;\n',
        replace:
          '      for (const prompt of task.prompts) await run.prompt(prompt);\n      ms = now() - started;\n    } catch {\n      outcome = error("execute");\n    }\n',
      },
    ],
    says: /execute 失败时 ms 量到失败为止/,
  },
  {
    checkpoint: "12",
    name: "目录里的胜者不排序",
    lab: "12.1",
    mutations: [
      {
        file: "packages/pi-coding-agent/src/resources/catalogue.ts",
        find: "[...winners.values()].sort((a, b) => compare(a.kind, b.kind) || compare(a.name, b.name))",
        replace: "[...winners.values()]",
      },
    ],
    says: /先按种类、再按名称（逐个码元比较，不看语言环境）排列/,
  },
  // The fresh-learner walks of 00–05 and 10–14 after issue 34's fixes (walk K, 13–14): silent before.
  {
    checkpoint: "13",
    name: "flush() 先看 poison 再 await writes：等着的写入失败了 flush() 仍 resolve",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "    async flush() {\n      await writes;\n      if (poison !== undefined) throw poison;\n",
        replace: "    async flush() {\n      if (poison !== undefined) throw poison;\n      await writes;\n",
      },
    ],
    says: /flush\(\) 先 await writes，之后 poison 有值就抛出它：它等着的写入失败了，flush\(\) 也拒绝/,
  },
  {
    checkpoint: "13",
    name: "dispose() 开头 if (closed) return：第二次调用立刻返回",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "    async dispose() {\n      closed = true;\n",
        replace: "    async dispose() {\n      if (closed) return;\n      closed = true;\n",
      },
    ],
    says: /dispose\(\) 可以调用多次：第二次调用做的和第一次一样/,
  },
  {
    checkpoint: "13",
    name: "写入链在 try 里 throw poison：之后的条目用嵌套的新错误换掉 poison",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "      if (poison !== undefined) return;\n      try {\n        await session.append(entry);\n",
        replace: "      try {\n        if (poison !== undefined) throw poison;\n        await session.append(entry);\n",
      },
    ],
    says: /poison 只在第一次写入失败时设下：之后排着的条目看到 poison 就跳过/,
  },
  {
    checkpoint: "13",
    name: "activePath() 只深拷贝已持久化的条目，排队中的原样交出",
    lab: "13.2",
    mutations: [
      {
        file: contextAdapter,
        find: "  return structuredClone([...source.persisted(), ...source.queued()]);\n",
        replace: "  return [...structuredClone(source.persisted()), ...source.queued()];\n",
      },
    ],
    says: /拼出来的是新数组的深拷贝，排队中的后缀也一样/,
  },
  {
    checkpoint: "13",
    name: "条目用 structuredClone(message)：值为 undefined 的字段留在条目里",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "    append(messageEntry(JSON.parse(JSON.stringify(message)) as Message, leaf, newId()));\n",
        replace: "    append(messageEntry(structuredClone(message), leaf, newId()));\n",
      },
    ],
    says: /条目存的是消息的 JSON 副本（JSON\.parse\(JSON\.stringify\(message\)\)，不是 structuredClone）/,
  },
  {
    checkpoint: "13",
    name: "交互模式没有 io.input 时直接遍历它",
    lab: "13.4",
    mutations: [
      {
        file: modes,
        find: "  for await (const line of io.input ?? []) {\n",
        replace: "  for await (const line of io.input as AsyncIterable<string>) {\n",
      },
    ],
    says: /交互：没有给 io\.input 就是没有输入（io\.input \?\? \[\]），正常结束/,
  },
  {
    checkpoint: "13",
    name: "restoredPath() 按真假看 leaf：空会话接受 leaf 为空字符串",
    lab: "13.1",
    mutations: [
      {
        file: openRuntime,
        find: "    if (leaf !== undefined) throw new RuntimeError(`会话是空的",
        replace: "    if (leaf) throw new RuntimeError(`会话是空的",
      },
    ],
    says: /空字符串也是给了，比较 leaf !== undefined，不看真假/,
  },
  {
    checkpoint: "13",
    name: "JSON 模式在每个提示之后还写最终文本",
    lab: "13.4",
    mutations: [
      {
        file: modes,
        find: "      last = await runtime.prompt(prompt);\n      if (failed !== undefined) throw failed.error;\n",
        replace:
          "      last = await runtime.prompt(prompt);\n      if (failed !== undefined) throw failed.error;\n      writeFinal(io, last);\n",
      },
    ],
    says: /JSON 模式每行一个事件，最终文本在事件里，不另外写/,
  },
  {
    checkpoint: "13",
    name: "上下文适配器总是带上 systemPrompt 键，没有系统提示时值为 undefined",
    lab: "13.2",
    mutations: [
      {
        file: contextAdapter,
        find: "  const sent: ModelRequest = { messages: context.messages, tools: request.tools };\n  if (request.systemPrompt !== undefined) sent.systemPrompt = request.systemPrompt;\n",
        replace:
          "  const sent = { messages: context.messages, tools: request.tools, systemPrompt: request.systemPrompt } as ModelRequest;\n",
      },
    ],
    says: /request 有 systemPrompt 时才带上它：没有系统提示的请求里没有 systemPrompt 这个键/,
  },
  {
    checkpoint: "14",
    name: "execute 每个提示各自 try：一个提示失败后其余提示照样发",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: '    try {\n      for (const prompt of task.prompts) await run.prompt(prompt);\n    } catch {\n      outcome = error("execute");\n    }\n',
        replace:
          '    for (const prompt of task.prompts) {\n      try {\n        await run.prompt(prompt);\n      } catch {\n        outcome = error("execute");\n      }\n    }\n',
      },
    ],
    says: /execute 在第一个失败的提示处停下：之后的提示不再发/,
  },
  {
    checkpoint: "14",
    name: "summarise() 的 steps 取最后一次运行的，不求和",
    lab: "14.3",
    mutations: [
      {
        file: suite,
        find: '      steps: sum("steps"),\n',
        replace: "      steps: runs.at(-1)?.evidence.steps ?? 0,\n",
      },
    ],
    says: /每个任务的计数是它各次运行之和：steps 与 calls 也求和/,
  },
  {
    checkpoint: "14",
    name: "judge 的观察里多了工作区路径",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "        observation = frozenCopy({ messages, files: await readDeclared(folder.workspace, task.declares) });\n",
        replace:
          "        const files = await readDeclared(folder.workspace, task.declares);\n        observation = frozenCopy({ messages, files, workspace: folder.workspace } as Observation);\n",
      },
    ],
    says: /observation 只有 messages 与 files 两个键/,
  },
  {
    checkpoint: "14",
    name: "打开 agent 时 options 给 {}：任务的 contextWindow 丢了",
    lab: "14.2",
    mutations: [{ file: runner, find: "      options: task.agent ?? {},\n", replace: "      options: {},\n" }],
    says: /打开 agent 时把任务的选项原样交给它/,
  },
  // Fresh-learner walks after walks A–M (walks N–R): chapters 13–14 (walk R), mistakes that went red with a
  // neighbouring rule's line or only after the 30 s stop; and the session file a task gives, written as the function's source.
  {
    checkpoint: "13",
    name: "没有窗口时预算的窗口是 0：活动路径整条被裁掉",
    lab: "13.2",
    mutations: [
      {
        file: contextAdapter,
        find: "    contextWindow: window?.tokens ?? NO_WINDOW,\n",
        replace: "    contextWindow: window?.tokens ?? 0,\n",
      },
    ],
    says: /没有给窗口（options\.window）时什么都不裁，再长的活动路径也整条进请求：contextWindow 是 window\?\.tokens \?\? NO_WINDOW，不是 0/,
  },
  {
    checkpoint: "13",
    name: "写完的条目只从 queued 里 shift 掉，没有移进 persisted",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "        persisted.push(queued.shift() as SessionEntry);\n",
        replace: "        queued.shift();\n",
      },
    ],
    says: /写完的条目要移进 persisted：写入成功后 queued\.shift\(\) 出来的条目 push 进 persisted（已经落盘 1 个，persisted 里只有 0 个）/,
  },
  {
    checkpoint: "13",
    name: "recordUpTo 用 while 循环，recordMessage 不让 recorded 加一：同一条消息记个没完",
    lab: "13.3",
    mutations: [
      {
        file: runtime,
        find: "    append(messageEntry(JSON.parse(JSON.stringify(message)) as Message, leaf, newId()));\n    recorded += 1;\n",
        replace: "    append(messageEntry(JSON.parse(JSON.stringify(message)) as Message, leaf, newId()));\n",
      },
      {
        file: runtime,
        find: "    for (const message of transcript.slice(recorded)) recordMessage(message);\n",
        replace: "    while (recorded < transcript.length) recordMessage(transcript[recorded] as Message);\n",
      },
    ],
    says: /recordUpTo 记到 transcript 的末尾就停：recordMessage 每记下一条消息 recorded 加一/,
  },
  {
    checkpoint: "14",
    name: "dispose 失败换掉主结果，不进 secondary",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: '      secondary.push({ phase: "dispose" });\n',
        replace: '      outcome = error("dispose");\n',
      },
    ],
    says: /dispose 与 cleanup 的失败只按顺序追加进 secondary，不覆盖主结果：这里的主结果是 collect 阶段的错误/,
  },
  {
    checkpoint: "14",
    name: "summarise() 的计数取最后一次运行的，不求和",
    lab: "14.3",
    mutations: [
      {
        file: suite,
        find: "runs.reduce((total, r) => total + r.evidence[key], 0);",
        replace: "(runs.at(-1) as CaseReport).evidence[key];",
      },
    ],
    says: /每个任务的 tokens 与 ms 是它各次运行之和（x：3 次 × 5 个 token、3 次 × 10 ms），不是最后一次的/,
  },
  {
    checkpoint: "14",
    name: "prepare 把 agent.session 这个函数本身（它的源码）写进 sessionFile，不调用它",
    lab: "14.2",
    mutations: [
      {
        file: runner,
        find: "    const session = task.agent?.session?.(folder.workspace);\n",
        replace: "    const session = task.agent?.session === undefined ? undefined : String(task.agent.session);\n",
      },
    ],
    says: /把 task\.agent\.session\(folder\.workspace\) 返回的 JSONL 写进这次运行的 sessionFile（agent\.session 是函数/,
  },
  // The fresh-learner walk of 10–12 after issue 34's fixes (walk C): silent passes and misleading lines.
  {
    checkpoint: "10",
    name: "parentId 只查是不是字符串，不查是不是 8 位十六进制的 id",
    lab: "10.2",
    mutations: [
      {
        file: parseEntryFile,
        find: '  if (entry.parentId !== null && (typeof entry.parentId !== "string" || !ENTRY_ID.test(entry.parentId))) {',
        replace: '  if (entry.parentId !== null && typeof entry.parentId !== "string") {',
      },
    ],
    says: /parentId 不是 8 位十六进制 id（parentId 是 null 或同样的 id）的条目被拒绝：应当被拒绝，却成功了/,
  },
  {
    checkpoint: "10",
    name: "原型是 null 的对象被当成类的实例拒绝",
    lab: "10.2",
    mutations: [
      {
        file: parseEntryFile,
        find: "    if (prototype !== Object.prototype && prototype !== null) {",
        replace: "    if (prototype !== Object.prototype) {",
      },
    ],
    says: /原型是 null 的对象（Object\.create\(null\)）也是普通对象/,
  },
  {
    checkpoint: "10",
    name: "checkEntry 先复制一份再检查，返回的是副本",
    lab: "10.2",
    mutations: [
      {
        file: parseEntryFile,
        find: "export function checkEntry(entry: unknown): SessionEntry {\n",
        replace: "export function checkEntry(entry: unknown): SessionEntry {\n  entry = structuredClone(entry);\n",
      },
    ],
    says: /checkEntry\(\) 不复制，就地检查、返回的就是传进来的对象/,
  },
  {
    checkpoint: "10",
    name: "复制完一个对象不移出祖先集合：共享的引用被当成循环",
    lab: "10.2",
    mutations: [{ file: parseEntryFile, find: "    ancestors.delete(value);\n", replace: "" }],
    says: /共享但不成环的引用不是循环：可以复制，两处都保留（复制完一个对象就把它移出祖先集合）（实际被拒绝/,
  },
  {
    checkpoint: "10",
    name: "已关闭时以 closedBecause 字符串本身 reject，不是 Error",
    lab: "10.5",
    mutations: [
      {
        file: jsonlStore,
        find: "    if (this.closedBecause !== undefined) return Promise.reject(new Error(this.closedBecause));",
        replace: "    if (this.closedBecause !== undefined) return Promise.reject(this.closedBecause);",
      },
    ],
    says: /文件恢复之后的追加：以 new Error\(closedBecause\) reject，一个 Error，消息就是那一行说明/,
  },
  {
    checkpoint: "10",
    name: "回答了的调用不从这一批里去掉：它又补了一条 aborted 结果",
    lab: "10.6",
    mutations: [{ file: sessionContext, find: "      open.calls.splice(index, 1);\n", replace: "" }],
    says: /回答了就把那个调用从这一批里去掉：已有结果的调用不再补一条 aborted 结果/,
  },
  {
    checkpoint: "11",
    name: "fromHook 检查了却不放进新条目",
    lab: "11.1",
    mutations: [
      {
        file: compactionSummary,
        find: "  if (entry.fromHook !== undefined) parsed.fromHook = entry.fromHook;\n",
        replace: "",
      },
    ],
    says: /fromHook 检查过也要放进新条目/,
  },
  {
    checkpoint: "11",
    name: "不查 answered：重复的结果报成孤立的结果",
    lab: "11.2",
    mutations: [
      {
        file: compactionInteractions,
        find: "      if (answered.has(id))\n        throw new Error(",
        replace: "      if (answered.has(id) && !answered.has(id))\n        throw new Error(",
      },
    ],
    says: /已被回答过的调用又来一个结果是重复的结果，不是孤立的结果/,
  },
  {
    checkpoint: "11",
    name: "safetyMarginTokens 为 0 当成没给，用了默认的 5%",
    lab: "11.3",
    mutations: [
      {
        file: budget,
        find: "budget.safetyMarginTokens ?? defaultSafetyMargin(window)",
        replace: "budget.safetyMarginTokens || defaultSafetyMargin(window)",
      },
    ],
    says: /safetyMarginTokens: 0 是给了 0（不留余量），不是没给/,
  },
  {
    checkpoint: "11",
    name: "createCompactionEntry 不用传进来的 id",
    lab: "11.4",
    mutations: [{ file: createEntry, find: "    id: id ?? newEntryId(", replace: "    id: newEntryId(" }],
    says: /id 给了就用它：只有没给时才用 newEntryId\(\)/,
  },
  {
    checkpoint: "11",
    name: "createCompactionEntry 不用传进来的 now，自己取 new Date()",
    lab: "11.4",
    mutations: [
      {
        file: createEntry,
        find: "    timestamp: now.toISOString(),",
        replace: "    timestamp: new Date().toISOString(),",
      },
    ],
    says: /timestamp 是 now\.toISOString\(\)：用传进来的 now/,
  },
  {
    checkpoint: "12",
    name: "stopAt 按字符串前缀判断是不是上级",
    lab: "12.1",
    mutations: [
      {
        file: resourceRootsFile,
        find: "  if (!isInside(stopAt, workspace)) {",
        replace: "  if (!workspace.startsWith(stopAt)) {",
      },
    ],
    says: /名字只是前缀相同的兄弟目录（re 之于 repo\/app）不是上级/,
  },
  {
    checkpoint: "12",
    name: "工作区按给的路径用，不换成真实路径",
    lab: "12.1",
    mutations: [
      {
        file: resourceRootsFile,
        find: '  const workspace = realDir(options.workspace, "工作区");',
        replace: "  const workspace = path.resolve(options.workspace);",
      },
    ],
    says: /工作区与 stopAt 都用 realDir\(\) 换成真实路径：经符号链接给出的工作区也在 stopAt 里面/,
  },
  {
    checkpoint: "12",
    name: "恰好 64 个字符的技能 name 也被拒绝",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: "  if (!SKILL_NAME.test(name) || name.length > 64) {",
        replace: "  if (!SKILL_NAME.test(name) || name.length >= 64) {",
      },
    ],
    says: /name 最多 64 个字符：恰好 64 个字符的 name 可以（实际被拒绝/,
  },
  {
    checkpoint: "12",
    name: "空的引号参数被丢掉，后面的 $N 错位",
    lab: "12.3",
    mutations: [
      {
        file: templates,
        find: '    args.push(double ?? single ?? bare ?? "");',
        replace: '    const grouped = double ?? single ?? bare ?? "";\n    if (grouped !== "") args.push(grouped);',
      },
    ],
    says: /空的 "" 与 '' 也是一个参数（空串），后面的 \$N 不错位/,
  },
  {
    checkpoint: "12",
    name: "工厂抛错时暂存区不关（没有 finally）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "  try {\n    await module.default(stagingApi(staged));\n  } finally {\n    staged.open = false;\n  }",
        replace: "  await module.default(stagingApi(staged));\n  staged.open = false;",
      },
    ],
    says: /无论成败，工厂结束之后（finally）暂存区都关上：工厂抛错之后，它拿到的 API 同样拒绝再注册/,
  },
  // The fresh-learner walks of 00–05 and 10–14 after issue 34's fixes (walk H, chapters 10–12): silent passes and a
  // rule that went red only in the next lab.
  {
    checkpoint: "10",
    name: "this.writer 不吞掉错误：失败之后 flushed() reject，排队的追加共用一个 Error",
    lab: "10.5",
    mutations: [
      {
        file: jsonlStore,
        find: "    this.writer = written.catch(() => undefined);",
        replace: "    this.writer = written;",
      },
    ],
    says: /flushed\(\) 在写入失败之后照样 resolve（每个追加“写完或失败”就算）/,
  },
  {
    checkpoint: "11",
    name: "historyBudget 把负的预算截成 0",
    lab: "11.3",
    mutations: [
      {
        file: budget,
        find: "  return (\n    window -",
        replace: "  return Math.max(\n    0,\n    window -",
      },
    ],
    says: /窗口放不下系统提示、输出预留与安全余量时，预算如实是负数（可以 ≤ 0，不截成 0）/,
  },
  {
    checkpoint: "11",
    name: "createCompactionEntry 收整条路径上的任何用户消息，不管最新的压缩",
    lab: "11.4",
    mutations: [
      {
        file: createEntry,
        find: "  const { messages, entryIds } = sinceNewestCompaction(path);\n  const starts = groupInteractions(messages).map((group) => entryIds[group.start]);",
        replace:
          '  const starts = path.flatMap((entry) => (entry.type === "message" && entry.message.role === "user" ? [entry.id] : []));',
      },
    ],
    says: /更早被总结的部分（最新压缩之前的交互开头）：应当被拒绝，却成功了/,
  },
  {
    checkpoint: "12",
    name: "工具名只在提交时逐个查：冲突之前的工具已经注册了",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "(name, index) => registry.get(name) !== undefined || names.indexOf(name) !== index",
        replace: "(name, index) => names.indexOf(name) !== index",
      },
      {
        file: loadExtensionsFile,
        find: "    for (const tool of staged.tools) options.registry.register(tool);\n",
        replace:
          '    const clash = staged.tools.find((tool) => {\n      if (options.registry.get(tool.name) !== undefined) return true;\n      options.registry.register(tool);\n      return false;\n    });\n    if (clash !== undefined) {\n      problem("扩展 " + file.name + " 没有加载，什么也没有注册：工具名 " + clash.name + " 已经有人用了：给扩展的工具换一个名字");\n      continue;\n    }\n',
      },
    ],
    says: /工厂成功、并且没有工具与已有的重名，才一次提交：b-clash\.mjs 的第二个工具与 read 重名/,
  },
  // The fresh-learner walks of 00–05 and 10–14 after issue 34's fixes (walk L, chapters 10–12): silent passes.
  {
    checkpoint: "10",
    name: "成环只和叶的 id 比：不经过叶的环让 pathTo 一直走下去",
    lab: "10.1",
    mutations: [
      {
        file: sessionTree,
        find: "    if (seen.has(id)) throw",
        replace: "    if (id === leafId && chain.length > 0) throw",
      },
    ],
    says: /成环不一定经过叶：走回到这次已经走过的任何 id 都是成环，不只是叶的 id/,
  },
  {
    checkpoint: "10",
    name: "id 不查是不是字符串：数字 12345678 也当作 id",
    lab: "10.2",
    mutations: [
      {
        file: parseEntryFile,
        find: '  if (typeof entry.id !== "string" || !ENTRY_ID.test(entry.id))',
        replace: "  if (!ENTRY_ID.test(entry.id as string))",
      },
    ],
    says: /id 是数字而不是字符串（12345678 不是 8 位十六进制的 id）的条目被拒绝：应当被拒绝，却成功了/,
  },
  {
    checkpoint: "10",
    name: "model_change 不查 modelId",
    lab: "10.2",
    mutations: [
      {
        file: parseEntryFile,
        find: '      requireString(entry, "modelId");\n',
        replace: "",
      },
    ],
    says: /model_change 缺 modelId（model_change 要 provider 与 modelId）的条目被拒绝：应当被拒绝，却成功了/,
  },
  {
    checkpoint: "10",
    name: "thinking_level_change 不查 thinkingLevel",
    lab: "10.2",
    mutations: [
      {
        file: parseEntryFile,
        find: '      requireString(entry, "thinkingLevel");\n',
        replace: "",
      },
    ],
    says: /thinking_level_change 缺 thinkingLevel（thinking_level_change 要 thinkingLevel）的条目被拒绝：应当被拒绝，却成功了/,
  },
  {
    checkpoint: "10",
    name: "session_info 不查 name",
    lab: "10.2",
    mutations: [
      {
        file: parseEntryFile,
        find: '      requireString(entry, "name");\n',
        replace: "",
      },
    ],
    says: /session_info 缺 name（session_info 要 name）的条目被拒绝：应当被拒绝，却成功了/,
  },
  {
    checkpoint: "10",
    name: "会话头只在第一个物理行读：开头有空行的文件打不开",
    lab: "10.4",
    mutations: [
      {
        file: jsonlRecoveryFile,
        find: "      if (header === undefined) header = parseHeader(value);",
        replace: "      if (index === 0) header = parseHeader(value);",
      },
    ],
    says: /会话头是第一条非空行：文件开头的空行也跳过/,
  },
  {
    checkpoint: "10",
    name: "appendFile 不带只追加的 flag：被删掉的会话文件被悄悄新建，没有会话头",
    lab: "10.5",
    mutations: [
      {
        file: jsonlStore,
        find: "        await appendFile(this.file, line, { flag: APPEND_ONLY });",
        replace: "        await appendFile(this.file, line);",
      },
    ],
    says: /追加的文件如果被删掉，O_APPEND 不带 O_CREAT：写入失败，而不是悄悄新建一个没有会话头的文件/,
  },
  {
    checkpoint: "11",
    name: "keepNewest 没有交互时不返回 { first: 0, tokens: 0 }：空路径的 buildContext 抛 TypeError",
    lab: "11.3",
    mutations: [
      {
        file: budget,
        find: "  if (count === 0) return { first: 0, tokens: 0 };\n",
        replace: "",
      },
    ],
    says: /没有交互就返回 \{ first: 0, tokens: 0 \}，不调用 size\(i\)/,
  },
  {
    checkpoint: "12",
    name: "stopAt 就是工作区时一路走到文件系统的根",
    lab: "12.1",
    mutations: [
      {
        file: resourceRootsFile,
        find: '  for (let dir = path.dirname(workspace); isInside(stopAt, dir) && dir !== workspace; dir = path.dirname(dir)) {\n    ancestors.unshift({ kind: "ancestor", dir });\n    if (dir === stopAt) break;',
        replace:
          '  for (let dir = path.dirname(workspace); ; dir = path.dirname(dir)) {\n    ancestors.unshift({ kind: "ancestor", dir });\n    if (dir === stopAt || dir === path.dirname(dir)) break;',
      },
    ],
    says: /stopAt 就是工作区时没有上级目录：只有工作区一个根/,
  },
  {
    checkpoint: "12",
    name: "前置元数据开头的 --- 不要求在第一行",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: '  if (lines[0] !== "---" || end === -1) {',
        replace: "  if (end === -1) {",
      },
    ],
    says: /第一行要是 ---：前置元数据开头的 --- 不在第一行，就是没有前置元数据/,
  },
  {
    checkpoint: "12",
    name: "空的 description 也收下",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: '  if (description === "") throw',
        replace: '  if (!fields.has("description")) throw',
      },
    ],
    says: /description 不能空/,
  },
  {
    checkpoint: "12",
    name: "不查默认导出是不是函数：诊断只是 module.default is not a function",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: '  const module = (await import(pathToFileURL(file.path).href)) as { default?: unknown };\n  if (typeof module.default !== "function") {\n    throw new Error("它没有默认导出一个函数 (api) => void：写 export default function (api) { … }");\n  }\n',
        replace:
          "  const module = (await import(pathToFileURL(file.path).href)) as { default: (api: unknown) => unknown };\n",
      },
    ],
    says: /默认导出不是函数时，诊断说出要怎么改/,
  },
  {
    checkpoint: "11",
    name: "details 里 readFiles 与 modifiedFiles 对调",
    lab: "11.4",
    mutations: [
      {
        file: createEntry,
        find: "    details: { ...fields.files, structured: fields.summary },",
        replace:
          "    details: { readFiles: fields.files.modifiedFiles, modifiedFiles: fields.files.readFiles, structured: fields.summary },",
      },
    ],
    says: /details 记下文件清单：readFiles 是读过的，modifiedFiles 是改过的，各放各的，不对调/,
  },
  {
    checkpoint: "12",
    name: "胜者只按名称记：同名的技能与模板互相遮住",
    lab: "12.1",
    mutations: [
      {
        file: resourceCatalogue,
        find: "    const key = `${resource.kind}\\u0000${resource.name}`;",
        replace: "    const key = resource.name;",
      },
    ],
    says: /不同种类的同名资源互不影响：按（种类，名称）比较，名为 review 的技能与模板各留一个/,
  },
  {
    checkpoint: "11",
    name: "sinceNewestCompaction 从路径开头找压缩：用的是最早的一次",
    // Lab 11.4's createCompactionEntry calls it too, but 11.4 leaves a sinceNewestCompaction() that does
    // not give the messages after the newest compaction to Lab 11.5 (walk P's 11-29: it went red in 11.4 first).
    lab: "11.5",
    mutations: [
      {
        file: compactionContext,
        find: '  let at = path.length - 1;\n  while (at >= 0 && path[at]?.type !== "compaction") at -= 1;\n',
        replace: '  const at = path.findIndex((entry) => entry.type === "compaction");\n',
      },
    ],
    says: /路径上有两个压缩时只有最新的算数：sinceNewestCompaction\(\) 从路径末尾往回找/,
  },
  {
    checkpoint: "11",
    name: "createCompactionEntry 不查空路径：报的是 firstKeptEntryId 的错",
    lab: "11.4",
    mutations: [
      {
        file: createEntry,
        find: '  const leaf = path.at(-1);\n  if (leaf === undefined) throw new Error("分支是空的：没有可以压缩的历史");\n',
        replace: "  const leaf = path.at(-1) as SessionEntry;\n",
      },
    ],
    says: /路径是空的就一行报错（说它是空的）/,
  },
  {
    checkpoint: "12",
    name: "技能文件的内容不 trimEnd()：</file> 前多一个空行",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: '${(await readFile(real, "utf8")).trimEnd()}',
        replace: '${await readFile(real, "utf8")}',
      },
    ],
    says: /内容先 trimEnd\(\)：结尾的换行去掉，<\/file> 紧跟最后一行/,
  },
  {
    checkpoint: "12",
    name: "buildCatalogue 返回调用者的 diagnostics 数组本身",
    lab: "12.1",
    mutations: [
      {
        file: resourceCatalogue,
        find: "diagnostics: [...diagnostics] };",
        replace: "diagnostics: diagnostics as Diagnostic[] };",
      },
    ],
    says: /返回的 diagnostics 是 \[\.\.\.diagnostics\]：内容一样的新数组/,
  },
  // Fresh-learner walks after walks A–M (walks N–R): walk P's silent passes of chapters 10–11, and a
  // message that named a cut mid-interaction where the context was empty.
  {
    checkpoint: "10",
    name: "残行的字节数用 tail.length：数的是字符，不是 UTF-8 字节",
    lab: "10.4",
    mutations: [{ file: jsonlRecoveryFile, find: "bytes: tailBytes };", replace: "bytes: tail.length };" }],
    says: /残行被报告：它的物理行号与字节数（bytes 按 UTF-8 字节计，不是字符数/,
  },
  {
    checkpoint: "10",
    name: "消息形状的报错不写条目 id",
    lab: "10.2",
    mutations: [
      {
        file: parseEntryFile,
        find: "if (problem !== undefined) throw new Error(`条目 ${entry.id}：${problem}`);",
        replace: "if (problem !== undefined) throw new Error(problem);",
      },
    ],
    says: /message 的形状不对时，报错写出条目 id（messageProblem\(\) 的说明前加上“条目 a0000021：”）/,
  },
  {
    checkpoint: "10",
    name: "JSONL 存储的 commit 拒绝一个条目就永久关闭",
    lab: "10.5",
    mutations: [
      {
        file: jsonlStore,
        find: "    } catch (error) {\n      return Promise.reject(error);\n    }\n",
        replace:
          "    } catch (error) {\n      this.closedBecause = String(error);\n      return Promise.reject(error);\n    }\n",
      },
    ],
    says: /commit\(\) 拒绝的条目（重复 id、缺父条目、坏条目）只让这一次追加 reject、什么也不写：存储不关闭/,
  },
  // Fresh-learner walks after walks A–M (walks N–R): walk V, chapter 10: silent passes (array paths written with a
  // dot, a closed JSONL store that commits the refused entry before rejecting) and a generic line (every parent
  // checked up front).
  {
    checkpoint: "10",
    name: "pathTo 预先检查每个条目的父条目：断掉的兄弟分支也让所选分支抛出",
    lab: "10.1",
    mutations: [
      {
        file: sessionTree,
        find: "  const byId = indexById(entries);\n  const chain: SessionEntry[] = [];\n",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          "  const byId = indexById(entries);\n  for (const entry of entries) {\n    if (entry.parentId !== null && !byId.has(entry.parentId)) throw new Error(`条目 ${entry.id} 的父条目 ${entry.parentId} 不存在`);\n  }\n  const chain: SessionEntry[] = [];\n",
      },
    ],
    says: /断掉的兄弟分支不影响所选分支：只诊断所选的链，只查从叶沿 parentId 走回根时经过的条目，不预先检查每个条目的父条目/,
  },
  {
    checkpoint: "10",
    name: "copyJson 的数组路径写成 .i，不是 [i]",
    lab: "10.2",
    mutations: [
      {
        file: parseEntryFile,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of the reference file as written
        find: "copy.push(copyJson(value[index], `${where}[${index}]`, ancestors));",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        replace: "copy.push(copyJson(value[index], `${where}.${index}`, ancestors));",
      },
    ],
    says: /报错写出不安全值所在的路径，数组的元素写成 \[i\]/,
  },
  {
    checkpoint: "10",
    name: "JSONL 存储关闭之后先 commit 再看 closedBecause：被拒的条目进了内存",
    lab: "10.5",
    mutations: [
      {
        file: jsonlStore,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of the reference file as written
        find: "    if (this.closedBecause !== undefined) return Promise.reject(new Error(this.closedBecause));\n    let line: string;\n    try {\n      line = `${JSON.stringify(this.commit(entry))}\\n`;\n    } catch (error) {\n      return Promise.reject(error);\n    }\n",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          "    let line: string;\n    try {\n      line = `${JSON.stringify(this.commit(entry))}\\n`;\n    } catch (error) {\n      return Promise.reject(error);\n    }\n    if (this.closedBecause !== undefined) return Promise.reject(new Error(this.closedBecause));\n",
      },
    ],
    says: /closedBecause 有值时立即 reject，在 commit 之前：存储关闭之后被拒的追加什么也不留下（has\(id\) 仍是 false，leafId\(\) 与 entries\(\) 不变）/,
  },
  {
    checkpoint: "11",
    name: "parseCompactionEntry 的 details 用输入本身，不用 parseCompactionFiles 的副本",
    lab: "11.1",
    mutations: [
      {
        file: compactionSummary,
        find: 'const details: CompactionEntry["details"] = parseCompactionFiles(entry.details, `${where} 的 details`);',
        replace:
          'const details = (parseCompactionFiles(entry.details, `${where} 的 details`), entry.details as NonNullable<CompactionEntry["details"]>);',
      },
    ],
    says: /parseCompactionEntry 单独调用（不经 parseEntry 的 copyJson）也收下副本/,
  },
  {
    checkpoint: "11",
    name: "keepNewest 不先放进最新一段：从 count 与 0 个 token 开始",
    lab: "11.3",
    mutations: [
      {
        file: budget,
        find: "  let first = count - 1;\n  let tokens = size(first);\n",
        replace: "  let first = count;\n  let tokens = 0;\n",
      },
    ],
    says: /最新一段（count − 1）无论多大都保留：它单独就超出 available（50 > 10）时仍返回/,
  },
  {
    checkpoint: "11",
    name: "压缩条目的父条目是最后一条消息，不是路径的最后一条",
    lab: "11.4",
    mutations: [
      {
        file: createEntry,
        find: "  const leaf = path.at(-1);\n",
        replace:
          '  let leaf: SessionEntry | undefined;\n  for (const candidate of path) if (candidate.type === "message") leaf = candidate;\n',
      },
    ],
    says: /父条目是路径的最后一条（path\.at\(-1\)），不管它是什么类型：路径以 label 条目结尾时压缩挂在这个 label 下/,
  },
  {
    checkpoint: "11",
    name: "firstKeptEntryId 找不到的报错不点名压缩条目",
    lab: "11.5",
    mutations: [
      {
        file: compactionContext,
        find: "`compaction 条目 ${compaction.id} 的 firstKeptEntryId ${compaction.firstKeptEntryId} 不在这条分支上它之前的位置`",
        replace: "`firstKeptEntryId ${compaction.firstKeptEntryId} 不在分支上`",
      },
    ],
    says: /firstKeptEntryId 找不到时，同一行也点名压缩条目（compaction 条目 d0000003/,
  },
  // Chapter 15, planted by its author: one per rule the guide states for each lab.
  {
    checkpoint: "15",
    name: "activate() 按请求的顺序返回，不按注册顺序",
    lab: "15.1",
    mutations: [
      {
        file: exposedRegistry,
        find: "    const added = this.order.filter(",
        replace: "    const added = [...wanted].filter(",
      },
    ],
    says: /按注册顺序返回新激活的/,
  },
  {
    checkpoint: "15",
    name: "不是延迟的就当作声明的：隐藏的工具也告诉了模型",
    lab: "15.1",
    mutations: [
      {
        file: exposedRegistry,
        find: '    return exposure === "direct" || (exposure === "deferred" && this.active.has(name));',
        replace: '    return exposure !== "deferred" || this.active.has(name);',
      },
    ],
    says: /只有 direct 的工具一开始就声明/,
  },
  {
    checkpoint: "15",
    name: "没有声明的延迟工具当作没有注册：拒绝不叫模型去搜索",
    lab: "15.1",
    mutations: [
      {
        file: exposedRegistry,
        find: "    if (!this.callable(name)) return refusing(name);",
        replace: "    if (!this.callable(name)) return undefined;",
      },
    ],
    says: /说要先用 tool_search 找到它/,
  },
  {
    checkpoint: "15",
    name: "重放时先加后删：换了定义的工具被删掉",
    lab: "15.2",
    mutations: [
      {
        file: toolState,
        find: "    for (const name of entry.data.removed) declared.delete(name);\n    for (const tool of entry.data.added) declared.set(tool.name, tool);",
        replace:
          "    for (const tool of entry.data.added) declared.set(tool.name, tool);\n    for (const name of entry.data.removed) declared.delete(name);",
      },
    ],
    says: /每条变化先删后加/,
  },
  {
    checkpoint: "15",
    name: "重放的结果直接交出条目里的定义",
    lab: "15.2",
    mutations: [
      {
        file: toolState,
        find: "  return structuredClone([...declared.values()]);",
        replace: "  return [...declared.values()];",
      },
    ],
    says: /重放的结果是副本/,
  },
  {
    checkpoint: "15",
    name: "参数 schema 只查 typeof object：数组也过了",
    lab: "15.2",
    mutations: [
      {
        file: toolState,
        find: "    if (!isObject(tool.parameters))",
        replace: '    if (typeof tool.parameters !== "object" || tool.parameters === null)',
      },
    ],
    says: /严格的解析器拒绝 .*不是对象的参数 schema/,
  },
  {
    checkpoint: "15",
    name: "空的变化也接受",
    lab: "15.2",
    mutations: [
      {
        file: toolState,
        find: '  if (added.length === 0 && removed.length === 0) throw new Error("工具变化是空的：没有变化就不写这个条目");\n',
        replace: "",
      },
    ],
    says: /严格的解析器拒绝 \{"added":\[\],"removed":\[\]\}/,
  },
  {
    checkpoint: "15",
    name: "全部直接的运行也记下第一条变化",
    lab: "15.3",
    mutations: [
      {
        file: exposureTranscript,
        find: "  if (allDirect && !recordsToolState(path)) return undefined;\n",
        replace: "",
      },
    ],
    says: /全部直接的注册表不写工具状态条目/,
  },
  {
    checkpoint: "15",
    name: "恢复时不从分支重新激活：激活只活在这次运行的变量里",
    lab: "15.3",
    mutations: [
      {
        file: exposureTranscript,
        find: "  return registry.activate(declaredOn(path).map((tool) => tool.name));",
        replace: "  return [];",
      },
    ],
    says: /打开时从分支恢复激活/,
  },
  {
    checkpoint: "15",
    name: "不用 idf：常见的词与稀有的词一样重",
    lab: "15.4",
    mutations: [
      {
        file: toolSearch,
        find: "    idf.set(term, Math.log(1 + (tools.length - df + 0.5) / (df + 0.5)));",
        replace: "    idf.set(term, df > 0 ? 1 : 0);",
      },
    ],
    says: /issue 比 create 稀有/,
  },
  {
    checkpoint: "15",
    name: "一次搜索激活所有匹配的工具",
    lab: "15.4",
    mutations: [{ file: toolSearch, find: "    .slice(0, limit)\n", replace: "" }],
    says: /最多返回 limit 个/,
  },
  {
    checkpoint: "15",
    name: "相同分数按下标倒序",
    lab: "15.4",
    mutations: [
      {
        file: toolSearch,
        find: "    .sort((a, b) => b.score - a.score || a.index - b.index)",
        replace: "    .sort((a, b) => b.score - a.score || b.index - a.index)",
      },
    ],
    says: /相同的分数保持注册顺序/,
  },
  // Chapter 15, the chapter-15 walk's (walk15): silent passes and messages that named another rule.
  {
    checkpoint: "15",
    name: "removed 里接受空字符串",
    lab: "15.2",
    mutations: [
      {
        file: toolState,
        find: '    if (typeof name !== "string" || name === "") throw',
        replace: '    if (typeof name !== "string") throw',
      },
    ],
    says: /removed 的每项是非空的名字，空字符串也不是/,
  },
  {
    checkpoint: "15",
    name: "不查 description",
    lab: "15.2",
    mutations: [
      {
        file: toolState,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of tool-state.ts as it is written
        find: '    if (typeof tool.description !== "string") throw new Error(`${where} 的 description 不是字符串`);\n',
        replace: "",
      },
      {
        file: toolState,
        find: "    return { name: tool.name, description: tool.description, parameters: tool.parameters };",
        replace:
          "    return { name: tool.name, description: tool.description as string, parameters: tool.parameters };",
      },
    ],
    says: /少了 description，那一行说出 description/,
  },
  {
    checkpoint: "15",
    name: "不查 added 的每项是不是对象",
    lab: "15.2",
    mutations: [
      {
        file: toolState,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of tool-state.ts as it is written
        find: "    if (!isObject(tool)) throw new Error(`${where} 不是 JSON 对象`);\n",
        replace: "",
      },
    ],
    says: /null 也是一行错误，说出 added\[0\]/,
  },
  {
    checkpoint: "15",
    name: "解析器的错误不说出字段",
    lab: "15.2",
    mutations: [
      {
        file: toolState,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of tool-state.ts as it is written
        find: "throw new Error(`${where} 的 name 不是非空字符串`);",
        replace: 'throw new Error("工具变化不合法");',
      },
    ],
    says: /严格的解析器拒绝 .*那一行错误说出哪个字段错了（name/,
  },
  {
    checkpoint: "15",
    name: "声明的集合放在模块变量里，不从分支推出",
    lab: "15.3",
    mutations: [
      {
        file: exposureTranscript,
        find: "export function pendingChange(",
        replace: "let lastDeclared: readonly ToolDefinition[] = [];\n\nexport function pendingChange(",
      },
      {
        file: exposureTranscript,
        find: "  return toolChange(declaredOn(path), declared);",
        replace:
          "  const change = toolChange(lastDeclared, declared);\n  lastDeclared = [...declared];\n  return change;",
      },
    ],
    says: /声明的集合从分支推出，不放在变量里/,
  },
  {
    checkpoint: "15",
    name: "全部直接就不记，不看分支记没记过工具状态",
    lab: "15.3",
    mutations: [
      {
        file: exposureTranscript,
        find: "  if (allDirect && !recordsToolState(path)) return undefined;",
        replace: "  if (allDirect) return undefined;",
      },
    ],
    says: /两条都成立才什么都不记/,
  },
  {
    checkpoint: "15",
    name: "恢复时只看最后一条工具状态",
    lab: "15.3",
    mutations: [
      {
        file: exposureTranscript,
        find: "  return registry.activate(declaredOn(path).map((tool) => tool.name));",
        replace:
          '  const last = [...path].reverse().filter((entry) => entry.type === "custom").slice(0, 1);\n  return registry.activate(declaredOn(last).map((tool) => tool.name));',
      },
    ],
    says: /恢复时重放整条分支/,
  },
  {
    checkpoint: "15",
    name: "idf 用经典的 ln((N − df + 0.5) / (df + 0.5))，可以是负的",
    lab: "15.4",
    mutations: [
      {
        file: toolSearch,
        find: "    idf.set(term, Math.log(1 + (tools.length - df + 0.5) / (df + 0.5)));",
        replace: "    idf.set(term, Math.log((tools.length - df + 0.5) / (df + 0.5)));",
      },
    ],
    says: /idf = ln\(1 \+ .*总是正的/,
  },
  {
    checkpoint: "15",
    name: "df 数词出现的次数，不数含它的工具",
    lab: "15.4",
    mutations: [
      {
        file: toolSearch,
        find: "    const df = documents.filter((document) => document.counts.has(term)).length;",
        replace: "    const df = documents.reduce((sum, document) => sum + (document.counts.get(term) ?? 0), 0);",
      },
    ],
    says: /df 是含这个词的工具数/,
  },
  {
    checkpoint: "15",
    name: "长度归一化倒过来：avgdl / dl",
    lab: "15.4",
    mutations: [{ file: toolSearch, find: "(B * length) / averageLength", replace: "(B * averageLength) / length" }],
    says: /长度归一化（b · dl \/ avgdl）/,
  },
  {
    checkpoint: "15",
    name: "分数为 0 的也算匹配",
    lab: "15.4",
    mutations: [
      {
        file: toolSearch,
        find: "    .filter(({ score }) => score > 0)",
        replace: "    .filter(({ score }) => score >= 0)",
      },
    ],
    says: /只有分数大于 0 的是匹配/,
  },
  {
    checkpoint: "15",
    name: "tf 只看有没有，不数次数",
    lab: "15.4",
    mutations: [
      {
        file: toolSearch,
        find: "      const tf = counts.get(term) ?? 0;",
        replace: "      const tf = counts.has(term) ? 1 : 0;",
      },
    ],
    says: /词频 tf 是出现的次数/,
  },
  {
    checkpoint: "15",
    name: "查询的词不去重",
    lab: "15.4",
    mutations: [
      {
        file: toolSearch,
        find: "  const wanted = [...new Set(terms(query))];",
        replace: "  const wanted = terms(query);",
      },
    ],
    says: /查询的词去重/,
  },
  {
    checkpoint: "15",
    name: "查询按空格切分，不用 terms()",
    lab: "15.4",
    mutations: [
      {
        file: toolSearch,
        find: "  const wanted = [...new Set(terms(query))];",
        replace: "  const wanted = [...new Set(query.toLowerCase().split(/\\s+/))];",
      },
    ],
    says: /查询与文档一样用 terms\(\) 分词/,
  },
  {
    checkpoint: "15",
    name: "rankTools 交出传进来的定义，不是副本",
    lab: "15.4",
    mutations: [
      {
        file: toolSearch,
        find: "    .map(({ index }) => structuredClone(tools[index] as ToolDefinition));",
        replace: "    .map(({ index }) => tools[index] as ToolDefinition);",
      },
    ],
    says: /rankTools 返回定义的副本/,
  },
  {
    checkpoint: "15",
    name: "details.loaded 是排序的结果，不是 activate() 返回的",
    lab: "15.4",
    mutations: [
      {
        file: toolSearch,
        find: "      const loaded = registry.activate(found.map((tool) => tool.name));",
        replace:
          "      const activated = registry.activate(found.map((tool) => tool.name));\n      const loaded = found.map((tool) => tool.name).filter((name) => activated.includes(name));",
      },
    ],
    says: /details.loaded 是 activate\(\) 返回的、按注册顺序/,
  },
  // Chapter 16, planted by its author: three per lab, one per rule its tests state.
  {
    checkpoint: "16",
    name: "只在开始时跑一次待办的 job：回复到了，await 醒不过来",
    lab: "16.1",
    mutations: [
      {
        file: runScript,
        find: "    for (;;) {\n      vm.executePendingJobs();",
        replace: "    vm.executePendingJobs();\n    for (;;) {",
      },
    ],
    says: /没被 catch 的拒绝都是 failure error/,
  },
  {
    checkpoint: "16",
    name: "没有调用在途也接着等回复：卡住的脚本不报 stalled",
    lab: "16.1",
    mutations: [
      { file: runScript, find: "      if (inFlight.size === 0) {", replace: "      if (inFlight.size < 0) {" },
    ],
    says: /没有嵌套调用在途、promise 还没兑现：立刻 stalled/,
  },
  {
    checkpoint: "16",
    name: "返回值带着 v 前缀交出去",
    lab: "16.1",
    mutations: [
      {
        file: runScript,
        find: '      if (read.startsWith("v")) return { ok: true, value: read.slice(1), output: output.text() };',
        replace: '      if (read.startsWith("v")) return { ok: true, value: read, output: output.text() };',
      },
    ],
    says: /返回值是它的 JSON 文本/,
  },
  {
    checkpoint: "16",
    name: "嵌套调用的 n 从 0 开始",
    lab: "16.2",
    mutations: [
      {
        file: nestedCalls,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of nested-calls.ts as it is written
        find: "      id: `${this.parentId}/${this.calls.length + 1}`,",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of nested-calls.ts as it is written
        replace: "      id: `${this.parentId}/${this.calls.length}`,",
      },
    ],
    says: /按到达顺序记下 <父>\/<n>/,
  },
  {
    checkpoint: "16",
    name: "次数上限差一：第 maxCalls + 1 次调用照样运行",
    lab: "16.2",
    mutations: [
      {
        file: nestedCalls,
        find: "    if (this.calls.length >= this.bounds.maxCalls) {",
        replace: "    if (this.calls.length > this.bounds.maxCalls) {",
      },
    ],
    says: /超过调用次数上限的调用结束整次运行/,
  },
  {
    checkpoint: "16",
    name: "关桥以后的调用照样运行",
    lab: "16.2",
    mutations: [
      {
        file: nestedCalls,
        find: '    if (this.closed) return { ok: false, text: "the run has ended: no more tool calls" };\n',
        replace: "",
      },
    ],
    says: /close\(\) 之后的调用不记录/,
  },
  {
    checkpoint: "16",
    name: "不等 worker 结束就 resolve",
    lab: "16.3",
    mutations: [
      {
        file: sandbox,
        find: "      void worker.terminate().then(() => resolve({ ...run, calls: bridge.calls }));",
        replace: "      void worker.terminate();\n      resolve({ ...run, calls: bridge.calls });",
      },
    ],
    says: /运行结束后不留下任何 worker 线程/,
  },
  {
    checkpoint: "16",
    name: "截止时间到了报成 error",
    lab: "16.3",
    mutations: [
      {
        file: sandbox,
        find: '      () => fail("timeout", `the script ran past',
        replace: '      () => fail("error", `the script ran past',
      },
    ],
    says: /死循环到截止时间被打断，失败是 timeout/,
  },
  {
    checkpoint: "16",
    name: "调用方的中止报成 error",
    lab: "16.3",
    mutations: [
      {
        file: sandbox,
        find: '    const onAbort = () => fail("aborted", "the run was aborted");',
        replace: '    const onAbort = () => fail("error", "the run was aborted");',
      },
    ],
    says: /调用方的中止结束这次运行，失败是 aborted/,
  },
  {
    checkpoint: "16",
    name: "超时也让 code 工具抛出：模型看不到 timeout",
    lab: "16.4",
    mutations: [
      {
        file: codeTool,
        find: '      if (run.failure === "aborted") throw',
        replace: '      if (run.failure === "aborted" || run.failure === "timeout") throw',
      },
    ],
    says: /工具结果说出 timeout/,
  },
  {
    checkpoint: "16",
    name: "脚本能调用 code 自己",
    lab: "16.4",
    mutations: [
      {
        file: codeTool,
        find: "  const reachable = () => options.callable().filter((tool) => tool.name !== CODE_TOOL_NAME);",
        replace: "  const reachable = () => options.callable();",
      },
    ],
    says: /code 是只给模型的工具：脚本不能再调用 code/,
  },
  {
    checkpoint: "16",
    name: "details 不带嵌套调用",
    lab: "16.4",
    mutations: [
      {
        file: codeTool,
        find: "      const details: CodeDetails = { ok: run.ok, calls: run.calls };",
        replace: "      const details: CodeDetails = { ok: run.ok, calls: [] };",
      },
    ],
    says: /details.calls 带着每一个嵌套调用/,
  },
  // Chapter 16, the fresh-learner walk's: rules the guide states that no assertion watched.
  {
    checkpoint: "16",
    name: "脚本的错误带着第二行交出去",
    lab: "16.1",
    mutations: [
      {
        file: runScript,
        find: '        return { ok: false, error: oneLine(read.slice(1)), failure: "error", output: output.text() };',
        replace: '        return { ok: false, error: read.slice(1), failure: "error", output: output.text() };',
      },
    ],
    says: /错误只有一行/,
  },
  {
    checkpoint: "16",
    name: "脚本失败时丢掉之前的 console 输出",
    lab: "16.1",
    mutations: [
      {
        file: runScript,
        find: '        return { ok: false, error: oneLine(read.slice(1)), failure: "error", output: output.text() };',
        replace: '        return { ok: false, error: oneLine(read.slice(1)), failure: "error", output: "" };',
      },
    ],
    says: /失败的运行也带回失败之前的 console 输出/,
  },
  {
    checkpoint: "16",
    name: "关桥时在途的记录仍是 running",
    lab: "16.2",
    mutations: [
      {
        file: nestedCalls,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the line of nested-calls.ts as it is written
        find: '      if (record.outcome === "running") this.finish(record, "cancelled", `cancelled: ${reason}`);\n',
        replace: "",
      },
    ],
    says: /close\(\) 时还在途的调用记为 cancelled/,
  },
  {
    checkpoint: "16",
    name: "关桥不中止在途的工具",
    lab: "16.2",
    mutations: [{ file: nestedCalls, find: "    this.cancel.abort(new Error(reason));\n", replace: "" }],
    says: /close\(\) 时在途的工具收到中止信号/,
  },
  {
    checkpoint: "16",
    name: "runs 不加一：每次运行的嵌套调用都挂在 code-0 下",
    lab: "16.4",
    mutations: [{ file: codeTool, find: "      runs += 1;\n", replace: "" }],
    says: /第二次运行从 code-2\/1 开始/,
  },
  {
    checkpoint: "16",
    name: "details 不带 failure：views 与会话看不出运行为什么失败",
    lab: "16.4",
    mutations: [
      {
        file: codeTool,
        find: "      if (run.failure !== undefined) details.failure = run.failure;\n",
        replace: "",
      },
    ],
    says: /失败的运行在 details 里带着 ok:false 与 failure/,
  },
  {
    checkpoint: "16",
    name: "中止时 execute() 不抛出：返回一个 [failed: aborted] 结果",
    lab: "16.4",
    mutations: [
      {
        file: codeTool,
        find: '      if (run.failure === "aborted") throw new Error(',
        replace: '      if (run.failure === "aborted") void new Error(',
      },
    ],
    says: /调用方中止时 execute\(\) 抛出一行错误/,
  },
  // Chapter 16, fixes after the walk: the worker's heap, replies into it, the abort and end() once.
  {
    checkpoint: "16",
    name: "worker 的 V8 堆耗尽报成 error：看不出是内存",
    lab: "16.3",
    mutations: [
      {
        file: sandbox,
        find: '    return { failure: "memory", message: "out of memory: the sandbox\'s worker ran out of heap" };',
        replace: '    return { failure: "error", message: "out of memory: the sandbox\'s worker ran out of heap" };',
      },
    ],
    says: /worker 的 V8 堆耗尽（ERR_WORKER_OUT_OF_MEMORY）也是这次运行的 memory 失败/,
  },
  {
    checkpoint: "16",
    name: "从不监听调用方的 abort：中止之后脚本照样跑完",
    lab: "16.3",
    mutations: [
      { file: sandbox, find: '    options.signal?.addEventListener("abort", onAbort, { once: true });\n', replace: "" },
    ],
    says: /调用方的中止结束这次运行，失败是 aborted（runCode 监听 signal 的 abort/,
  },
  {
    checkpoint: "16",
    name: "end() 不防第二次：随后 worker 的 exit 把结果改写成 error",
    lab: "16.3",
    mutations: [
      {
        file: sandbox,
        find: "      if (ended) return;\n      ended = true;\n      Atomics.store(",
        replace: "      ended = true;\n      Atomics.store(",
      },
    ],
    says: /end\(\) 只生效一次：先到的结束/,
  },
  {
    checkpoint: "16",
    name: "工具的结果不论多大都整个送进 worker",
    lab: "16.2",
    mutations: [
      {
        file: nestedCalls,
        find: "    if (replyBytes > this.bounds.maxReplyBytes) {\n      return this.finish(",
        replace: "    if (replyBytes > Number.POSITIVE_INFINITY) {\n      return this.finish(",
      },
    ],
    says: /回复的字节有上限/,
  },
  {
    checkpoint: "16",
    name: "回复的上限差一：刚好 maxReplyBytes 的结果也被拒绝",
    lab: "16.2",
    mutations: [
      {
        file: nestedCalls,
        find: "    if (replyBytes > this.bounds.maxReplyBytes) {",
        replace: "    if (replyBytes >= this.bounds.maxReplyBytes) {",
      },
    ],
    says: /刚好 maxReplyBytes 的结果照常送进 worker/,
  },
  {
    checkpoint: "17",
    name: "有 method 又有 result 的消息当作请求",
    lab: "17.1",
    mutations: [
      {
        file: jsonrpcMessage,
        find: '    if (hasResult || hasError) return { kind: "invalid", reason: "a message with a method also carries result/error" };\n',
        replace: "",
      },
    ],
    says: /不属于任何一类的消息是 invalid/,
  },
  {
    checkpoint: "17",
    name: "看 result 的值而不是字段在不在：result 为 null 的响应成了 invalid",
    lab: "17.1",
    mutations: [
      { file: jsonrpcMessage, find: "  if (hasResult) {", replace: "  if (hasResult && message.result !== null) {" },
    ],
    says: /result 为 null 也是响应/,
  },
  {
    checkpoint: "17",
    name: "没有换行的剩余部分被丢掉：半行永远拼不起来",
    lab: "17.1",
    mutations: [
      {
        file: ndjsonReader,
        find: "          this.chunks.push(rest);\n          this.buffered += rest.length;\n",
        replace: "",
      },
    ],
    says: /两半拼成一条消息/,
  },
  {
    checkpoint: "17",
    name: "服务器的请求得到错误的错误码",
    lab: "17.1",
    mutations: [{ file: mcpConnection, find: "error: { code: -32601,", replace: "error: { code: -32603," }],
    says: /服务器的请求得到 -32601/,
  },
  {
    checkpoint: "17",
    name: "不在等的 id 的响应报成错误事件：迟到的响应不再安静",
    lab: "17.4",
    mutations: [
      {
        file: mcpConnection,
        find: "        this.pending.get(message.id)?.resolve(message.result);",
        replace:
          "        const waiting = this.pending.get(message.id);\n        if (waiting === undefined) this.options.onError?.(new Error(`MCP response to unknown id ${message.id}`));\n        waiting?.resolve(message.result);",
      },
    ],
    says: /迟到的响应被安静地忽略/,
  },
  {
    checkpoint: "17",
    name: "握手之后忘了 notifications/initialized",
    lab: "17.2",
    mutations: [{ file: mcpLifecycle, find: '  await connection.notify("notifications/initialized");\n', replace: "" }],
    says: /发且只发一条 notifications\/initialized/,
  },
  {
    checkpoint: "17",
    name: "只接受最新的协议版本",
    lab: "17.2",
    mutations: [
      {
        file: mcpLifecycle,
        find: "!SUPPORTED_PROTOCOL_VERSIONS.includes(version)",
        replace: "version !== LATEST_PROTOCOL_VERSION",
      },
    ],
    says: /客户端也支持，接受并用它/,
  },
  {
    checkpoint: "17",
    name: "没有记下见过的 cursor：重复的 cursor 一直取到页数上限",
    lab: "17.3",
    mutations: [{ file: mcpListTools, find: "    seen.add(next);\n", replace: "" }],
    says: /见过的 cursor 再出现就是死循环/,
  },
  {
    checkpoint: "17",
    name: "没有参数时也带上 arguments",
    lab: "17.3",
    mutations: [
      {
        file: mcpCallTool,
        find: "  const params = args === undefined || Object.keys(args).length === 0 ? { name } : { name, arguments: args };",
        replace: "  const params = { name, arguments: args ?? {} };",
      },
    ],
    says: /没有参数时不带 arguments/,
  },
  {
    checkpoint: "17",
    name: "取消通知里写 id，不写 requestId",
    lab: "17.4",
    mutations: [
      {
        file: mcpConnection,
        find: '      this.notify("notifications/cancelled", { requestId: id, reason: error.message })',
        replace: '      this.notify("notifications/cancelled", { id, reason: error.message })',
      },
    ],
    says: /带着被放弃的请求的 id/,
  },
  {
    checkpoint: "17",
    name: "stdin 关闭后不退出的服务器直接 SIGKILL，不先 SIGTERM",
    lab: "17.5",
    mutations: [
      {
        file: stdioTransport,
        find: '    signalProcessGroup(pid, "SIGTERM");\n    if (!(await within(exited, this.options.termGraceMs ?? 1_000))) signalProcessGroup(pid, "SIGKILL");',
        replace:
          '    signalProcessGroup(pid, "SIGKILL");\n    await within(exited, this.options.termGraceMs ?? 1_000);',
      },
    ],
    says: /stdin 关闭后不退出：发 SIGTERM/,
  },
  {
    checkpoint: "17",
    name: "SIGTERM 只发给服务器自己，不发给它的进程组",
    lab: "17.5",
    mutations: [
      {
        file: stdioTransport,
        find: '    signalProcessGroup(pid, "SIGTERM");\n    if (!(await within(',
        replace: '    process.kill(pid, "SIGTERM");\n    if (!(await within(',
      },
    ],
    says: /SIGTERM 发给整个进程组/,
  },
  {
    checkpoint: "17",
    name: "截断时没有给哈希后缀留位置：名字超过 64",
    lab: "17.5",
    mutations: [
      {
        file: mcpToolNames,
        find: "${plain.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}",
        replace: "${plain.slice(0, MAX_TOOL_NAME_LENGTH)}${suffix}",
      },
    ],
    says: /过长的名字截到 64 个字符以内/,
  },
  {
    checkpoint: "17",
    name: "id 为 null 的错误响应被悄悄丢掉，不是错误事件",
    lab: "17.1",
    mutations: [
      {
        file: mcpConnection,
        find: "          if (message.id === null) this.options.onError?.(",
        replace: "          if (message.id === null) void (",
      },
    ],
    says: /id 为 null 的错误响应/,
  },
  {
    checkpoint: "17",
    name: "接受的协议版本没有交给 setProtocolVersion",
    lab: "17.2",
    mutations: [{ file: mcpLifecycle, find: "  connection.setProtocolVersion(version);\n", replace: "" }],
    says: /交给 setProtocolVersion/,
  },
  {
    checkpoint: "17",
    name: "拒绝不支持的版本时没有先关闭连接",
    lab: "17.2",
    mutations: [
      {
        file: mcpLifecycle,
        find: "    await connection.close();\n    throw new McpConnectionError(",
        replace: "    throw new McpConnectionError(",
      },
    ],
    says: /拒绝不支持的版本之前先关闭连接/,
  },
  {
    checkpoint: "17",
    name: "空串的 nextCursor 被当成下一页的 cursor",
    lab: "17.3",
    mutations: [
      {
        file: mcpListTools,
        find: 'if (typeof next !== "string" || next === "") return tools;',
        replace: 'if (typeof next !== "string") return tools;',
      },
    ],
    says: /nextCursor 是空串也表示没有下一页/,
  },
  {
    checkpoint: "17",
    name: "响应配给最早在等的请求，不看 id",
    lab: "17.1",
    mutations: [
      {
        file: mcpConnection,
        find: "        this.pending.get(message.id)?.resolve(message.result);",
        replace: "        [...this.pending.values()][0]?.resolve(message.result);",
      },
    ],
    says: /响应按 id 配对，不按到达顺序/,
  },
  {
    checkpoint: "18",
    name: "虚拟模型的 id 只和别的虚拟模型比，和物理模型重名也收下",
    lab: "18.1",
    mutations: [
      {
        file: modelCatalogue,
        find: "    if (byId.has(model.id) || routes.has(model.id)) {",
        replace: "    if (routes.has(model.id)) {",
      },
    ],
    says: /虚拟模型不能用物理模型的 id/,
  },
  {
    checkpoint: "18",
    name: "目录收下没有注册的 provider 的模型",
    lab: "18.1",
    mutations: [
      {
        file: modelCatalogue,
        find: "    if (!registered.has(model.provider)) {",
        replace: "    if (registered.size === 0) {",
      },
    ],
    says: /目录只收已注册 provider 的模型/,
  },
  {
    checkpoint: "18",
    name: "路由指向另一个虚拟模型时没有拒绝，报成了未知的模型",
    lab: "18.1",
    mutations: [
      {
        file: modelCatalogue,
        find: "  if (catalogue.virtual.has(id)) {",
        replace: "  if (catalogue.virtual.has(id) && id === via) {",
      },
    ],
    says: /虚拟到虚拟被拒/,
  },
  {
    checkpoint: "18",
    name: "抛错的路由把整条多行消息带进了拒绝",
    lab: "18.1",
    mutations: [
      {
        file: modelCatalogue,
        find: '    const cause = String((error as Error)?.message ?? error).split("\\n")[0];',
        replace: "    const cause = String((error as Error)?.message ?? error);",
      },
    ],
    says: /抛错的路由是一行/,
  },
  {
    checkpoint: "18",
    name: "每个请求都说是 prompt：工具结果之后的继续没有告诉路由",
    lab: "18.2",
    mutations: [
      {
        file: modelRouting,
        find: '  return messages.at(-1)?.role === "toolResult" ? "continuation" : "prompt";',
        replace: '  return messages.length > 0 ? "prompt" : "continuation";',
      },
    ],
    says: /第一次是提示，工具结果之后是继续/,
  },
  {
    checkpoint: "18",
    name: "previous 只问分支，不看这一轮里已有的选择",
    lab: "18.2",
    mutations: [
      {
        file: modelRouting,
        find: "          previous: newestChoice(request.messages) ?? options.previous?.(),",
        replace: "          previous: options.previous?.() ?? newestChoice(request.messages),",
      },
    ],
    says: /出错与中止的回答不是选择/,
  },
  {
    checkpoint: "18",
    name: "路由给出几个模型时只用第一个，不回退",
    lab: "18.2",
    mutations: [
      {
        file: modelRouting,
        find: "      if (chosen.length === 1) return answeredStream(",
        replace: "      if (chosen.length >= 1) return answeredStream(",
      },
    ],
    says: /第一个模型 503 时，这一轮由下一个模型答完/,
  },
  {
    checkpoint: "18",
    name: "从根往叶读分支：最早的选择赢了",
    lab: "18.3",
    mutations: [
      {
        file: branchState,
        find: "  for (let index = path.length - 1; index >= 0; index -= 1) {\n    const chosen",
        replace: "  for (let index = 0; index < path.length; index += 1) {\n    const chosen",
      },
    ],
    says: /比 model_change 新的回答也算/,
  },
  {
    checkpoint: "18",
    name: "没有 thinking_level_change 的分支不是 off",
    lab: "18.3",
    mutations: [{ file: branchState, find: '  return "off";', replace: '  return "medium";' }],
    says: /没有 thinking_level_change 的分支是 off/,
  },
  {
    checkpoint: "18",
    name: "model_change 多写了一个 Pi 没有的字段",
    lab: "18.3",
    mutations: [
      {
        file: branchState,
        find: "    modelId: id.slice(slash + 1),\n",
        replace: "    modelId: id.slice(slash + 1),\n    ...{ model: id },\n",
      },
    ],
    says: /model_change 正是 Pi 的字段，不多不少/,
  },
  {
    checkpoint: "18",
    name: "模型没变也写一条 model_change",
    lab: "18.3",
    mutations: [
      {
        file: branchState,
        find: "  if (after === undefined || after === before) return undefined;",
        replace: "  if (after === undefined) return undefined;",
      },
    ],
    says: /同一个模型不写/,
  },
  // Walk 18 (fresh learner): each passed every lab until its focused assertion was added.
  {
    checkpoint: "18",
    name: "从叶往回走差一步：分支第一条条目从不被读",
    lab: "18.3",
    mutations: [
      {
        file: branchState,
        find: "  for (let index = path.length - 1; index >= 0; index -= 1) {\n    const chosen",
        replace: "  for (let index = path.length - 1; index > 0; index -= 1) {\n    const chosen",
      },
    ],
    says: /从叶往回一直走到根：分支的第一条（根）也要读/,
  },
  {
    checkpoint: "18",
    name: "中止的回答也被当成了分支上的选择",
    lab: "18.3",
    mutations: [
      {
        file: branchState,
        find: '  if (entry.type !== "message" || !isReply(entry.message)) return undefined;',
        replace:
          '  if (entry.type !== "message" || entry.message.role !== "assistant" || entry.message.stopReason === "error") return undefined;',
      },
    ],
    says: /中止的回答不是选择，接着往回走/,
  },
  {
    checkpoint: "18",
    name: "路由时把出错的回答从请求里删掉再交给物理模型",
    lab: "18.2",
    mutations: [
      {
        file: modelRouting,
        find: "      const [first] = chosen as [PhysicalModel];",
        replace:
          '      request = { ...request, messages: request.messages.filter((m) => !(m.role === "assistant" && m.stopReason === "error")) };\n      const [first] = chosen as [PhysicalModel];',
      },
    ],
    says: /routing 不改 transcript：出错的回答也一字不差/,
  },
  {
    checkpoint: "18",
    name: "消息里有过工具结果就说是 continuation：下一轮的提示也成了继续",
    lab: "18.2",
    mutations: [
      {
        file: modelRouting,
        find: '  return messages.at(-1)?.role === "toolResult" ? "continuation" : "prompt";',
        replace: '  return messages.some((message) => message.role === "toolResult") ? "continuation" : "prompt";',
      },
    ],
    says: /只有最新一条是工具结果时才是 continuation/,
  },
  {
    checkpoint: "18",
    name: "思考级别从根往叶读：最早的 thinking_level_change 赢了",
    lab: "18.3",
    mutations: [
      {
        file: branchState,
        find: '  for (let index = path.length - 1; index >= 0; index -= 1) {\n    const entry = path[index] as SessionEntry;\n    if (entry.type === "thinking_level_change")',
        replace:
          '  for (let index = 0; index < path.length; index += 1) {\n    const entry = path[index] as SessionEntry;\n    if (entry.type === "thinking_level_change")',
      },
    ],
    says: /思考级别也从叶往回读：最新的 thinking_level_change 决定/,
  },
  {
    checkpoint: "18",
    name: "model_change 在最后一个 / 处拆开：modelId 里的 / 跑进了 provider",
    lab: "18.3",
    mutations: [
      {
        file: branchState,
        find: '  const slash = id.indexOf("/");',
        replace: '  const slash = id.lastIndexOf("/");',
      },
    ],
    says: /在第一个 \/ 处拆开：provider 里没有 \/，modelId 里可以还有 \//,
  },
  {
    checkpoint: "18",
    name: "一条没带 provider/model 的回答让往回走停下，更早的 model_change 没被读到",
    lab: "18.3",
    mutations: [
      {
        file: branchState,
        find: "    const chosen = chosenBy(path[index] as SessionEntry);\n    if (chosen !== undefined) return chosen;",
        replace:
          '    const entry = path[index] as SessionEntry;\n    if (entry.type === "message" && isReply(entry.message)) return answeredBy(entry.message);\n    const chosen = chosenBy(entry);\n    if (chosen !== undefined) return chosen;',
      },
    ],
    says: /没说出谁回答的回答（没带 provider\/model）被跳过/,
  },
  {
    checkpoint: "18",
    name: "两个虚拟模型同名也收下：只和物理模型比",
    lab: "18.1",
    mutations: [
      {
        file: modelCatalogue,
        find: "    if (byId.has(model.id) || routes.has(model.id)) {",
        replace: "    if (byId.has(model.id)) {",
      },
    ],
    says: /两个虚拟模型也不能同名/,
  },
  {
    checkpoint: "18",
    name: "标记谁回答时包了一层 then 和新的流：每个请求多等一步",
    lab: "18.2",
    mutations: [
      {
        file: modelRouting,
        find: "  stream.result().then(markerOf(model), ignore);\n  return stream;",
        replace:
          "  const marked = stream.result().then((message) => ({ ...message, ...answererFields(model) }) as AssistantMessage);\n  return { [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](), result: () => marked };",
      },
    ],
    says: /最终消息在最后一个事件之后才定下来时，经过路由也不多等一步/,
  },
  {
    checkpoint: "19",
    name: "一批记录一行一次地写：任务写下了、用户消息没写下的时刻存在",
    lab: "19.1",
    mutations: [
      {
        file: commitLog,
        find: "    const done = this.line.then(() => this.writeBatch(text));",
        replace:
          "    const done = this.line.then(() => {\n      for (const line of text.split(/(?<=\\n)/)) this.writeBatch(line);\n    });",
      },
    ],
    says: /一批只用一次写入/,
  },
  {
    checkpoint: "19",
    name: "失败的提交之后不截回：半行留在文件里，下一批接在它后面",
    lab: "19.1",
    mutations: [
      {
        file: commitLog,
        find: "      if (this.dirty) {\n        truncateSync(this.file, this.committedBytes);\n        this.dirty = false;\n      }\n",
        replace: "",
      },
    ],
    says: /失败的提交不留字节/,
  },
  {
    checkpoint: "19",
    name: "变更线记住了失败：一次失败之后所有提交都被拒绝",
    lab: "19.1",
    mutations: [
      { file: commitLog, find: "    this.line = done.catch(() => undefined);", replace: "    this.line = done;" },
    ],
    says: /失败的提交不挡住后面的提交/,
  },
  {
    checkpoint: "19",
    name: "失败的提交没有报告",
    lab: "19.1",
    mutations: [{ file: commitLog, find: "      this.options.onFailure?.(failure);\n", replace: "" }],
    says: /失败只报告一次/,
  },
  {
    checkpoint: "19",
    name: "请求在提交之前发出：模型看到了文件里还没有的提示",
    lab: "19.1",
    mutations: [
      {
        file: runtimeSteps,
        find: "        await deps.committed();\n        const failure = deps.failure();\n        if (failure !== undefined) throw failure;\n        const inner = open();\n",
        replace: "        const inner = open();\n        await deps.committed();\n",
      },
    ],
    says: /模型看到请求之前，用户提示已经提交/,
  },
  {
    checkpoint: "19",
    name: "用户提示和它的任务分两次写",
    lab: "19.2",
    mutations: [
      {
        file: runtimeSteps,
        find: '      record({ kind: "task", task, state: "pending" }, 2);',
        replace: '      record({ kind: "task", task, state: "pending" });',
      },
    ],
    says: /第一次写入恰好两行/,
  },
  {
    checkpoint: "19",
    name: "任务可以倒退：只拒绝回到 pending",
    lab: "19.2",
    mutations: [
      {
        file: durableTasks,
        find: "  if (from !== undefined && NEXT[from] === to) return;",
        replace: '  if (from !== undefined && to !== "pending") return;',
      },
    ],
    says: /任务不能倒退：completed 之后不能再 running/,
  },
  {
    checkpoint: "19",
    name: "重新打开时还在 running 的任务仍是 running：恢复时没有任务可继续",
    lab: "19.2",
    mutations: [
      {
        file: durableTasks,
        find: '  for (const [task, state] of states) if (state === "running") states.set(task, "pending");\n',
        replace: "",
      },
    ],
    says: /running 变回 pending/,
  },
  {
    checkpoint: "19",
    name: "意图在 execute() 之后才提交",
    lab: "19.3",
    mutations: [
      {
        file: runtimeSteps,
        find: '      record({ kind: "intent", callId: call.id, tool: call.name, replaySafe: isReplaySafe(tool) });\n      await deps.committed();\n',
        replace:
          '      const ran = await executeToolCall(call, deps.tools, context);\n      record({ kind: "intent", callId: call.id, tool: call.name, replaySafe: isReplaySafe(tool) });\n      await deps.committed();\n      if (ran.toolCallId === call.id) return ran;\n',
      },
    ],
    says: /执行时它的意图已经在文件里/,
  },
  {
    checkpoint: "19",
    name: "意图没记下工具当时说的可重放性：一律记成不可重放",
    lab: "19.3",
    mutations: [
      {
        file: runtimeSteps,
        find: "tool: call.name, replaySafe: isReplaySafe(tool) });",
        replace: "tool: call.name, replaySafe: false });",
      },
    ],
    says: /意图记下工具当时说的可重放性/,
  },
  {
    checkpoint: "19",
    name: "恢复只问现在的工具：记录里不可重放的意图也重跑了",
    lab: "19.3",
    mutations: [
      {
        file: durableRecovery,
        find: "    } else if (recorded && safeNow(call.name)) {",
        replace: "    } else if (safeNow(call.name)) {",
      },
    ],
    says: /只有记录与现在的工具都说可重放才重跑/,
  },
  {
    checkpoint: "19",
    name: "恢复只信记录：现在的工具不再可重放，意图仍被重跑",
    lab: "19.3",
    mutations: [
      {
        file: durableRecovery,
        find: "    } else if (recorded && safeNow(call.name)) {",
        replace: "    } else if (recorded) {",
      },
    ],
    says: /当前工具不再可重放时也不重跑/,
  },
  {
    checkpoint: "19",
    name: "有意图的调用一律重跑：不可重放的 bash 跑了第二次",
    lab: "19.3",
    mutations: [
      {
        file: durableRecovery,
        find: "    } else if (recorded && safeNow(call.name)) {",
        replace: "    } else if (recorded !== undefined) {",
      },
    ],
    says: /bash 与记录说不可重放的 read 不重跑/,
  },
  {
    checkpoint: "19",
    name: "没有意图的调用也说可能跑过：从没开始的和跑了一半的分不开",
    lab: "19.3",
    mutations: [
      {
        file: durableRecovery,
        find: "        ...toolErrorResult(call, NOT_STARTED, { notStarted: true }),",
        replace: "        ...interruptedIntent(call, open.assistant.timestamp),",
      },
    ],
    says: /没有意图的 bash：从没开始，说它没有运行/,
  },
  {
    checkpoint: "19",
    name: "每个 token 提交一次部分输出",
    lab: "19.4",
    mutations: [
      {
        file: partialOutput,
        find: "    if (this.held.length >= this.minChars) this.flush();",
        replace: "    this.flush();",
      },
    ],
    says: /按批提交，不是每个 token 一次/,
  },
  {
    checkpoint: "19",
    name: "部分输出流结束才提交：流到一半被杀，一个字也没留下",
    lab: "19.4",
    mutations: [
      { file: partialOutput, find: "    if (this.held.length >= this.minChars) this.flush();\n", replace: "" },
      {
        file: runtimeSteps,
        find: "        out.end(await inner.result());",
        replace: "        partial.flush();\n        out.end(await inner.result());",
      },
    ],
    says: /流还没结束，已有部分输出提交/,
  },
  {
    checkpoint: "19",
    name: "恢复时丢掉了部分回答：用户看过的文字不见了",
    lab: "19.4",
    mutations: [
      { file: durableRecovery, find: "    if (partial !== undefined) plan.partial = partial;\n", replace: "" },
    ],
    says: /部分回答是一条中止的回答/,
  },
  {
    checkpoint: "19",
    name: "出错的回答没有结束任务：恢复时又把请求发了一次",
    lab: "19.4",
    mutations: [
      {
        file: runtimeSteps,
        find: '      if (task !== undefined) record({ kind: "task", task, state: "completed", outcome });',
        replace:
          '      if (task !== undefined && outcome !== "error") record({ kind: "task", task, state: "completed", outcome });',
      },
    ],
    says: /出错的回答结束了任务/,
  },
  // Chapter 19's learner walk (walk19): the mistakes it found silent, each now red in its lab.
  {
    checkpoint: "19",
    name: "提交成功后 committedBytes 不前进：一次失败把之前成功的提交也截掉了",
    lab: "19.1",
    mutations: [{ file: commitLog, find: "      this.committedBytes += Buffer.byteLength(text);\n", replace: "" }],
    says: /失败之前已提交的字节一个不变/,
  },
  {
    checkpoint: "19",
    name: "提交没排在变更线上：慢的一批被后一批超过",
    lab: "19.1",
    mutations: [
      {
        file: commitLog,
        find: "    const done = this.line.then(() => this.writeBatch(text));",
        replace: "    const done = Promise.resolve().then(() => this.writeBatch(text));",
      },
    ],
    says: /按调用顺序写：第一批写得慢，第二批也等它写完/,
  },
  {
    checkpoint: "19",
    name: "变更线从不前进：每个提交都只等最初的空承诺",
    lab: "19.1",
    mutations: [
      {
        file: commitLog,
        find: "    this.line = done.catch(() => undefined);",
        replace: "    done.catch(() => undefined);",
      },
    ],
    says: /按调用顺序写：第一批写得慢，第二批也等它写完/,
  },
  {
    checkpoint: "19",
    name: "写入失败过仍发请求：stream() 只等提交，不看 failure()",
    lab: "19.1",
    mutations: [
      {
        file: runtimeSteps,
        find: "        const failure = deps.failure();\n        if (failure !== undefined) throw failure;\n",
        replace: "",
      },
    ],
    says: /写入失败过就不发请求/,
  },
  {
    checkpoint: "19",
    name: "意图没能写下工具照样执行：executeToolCall() 不看 failure()",
    lab: "19.3",
    mutations: [
      {
        file: runtimeSteps,
        // `!failure` is never true for an Error: the check is gone, the code still compiles.
        find: "      if (failure !== undefined)\n        return toolErrorResult(",
        replace: "      if (failure !== undefined && !failure)\n        return toolErrorResult(",
      },
    ],
    says: /意图没能写下（写入失败过）就不执行/,
  },
  {
    checkpoint: "19",
    name: "taskStates 记下每个任务的第一条 state：走完的任务看起来还在 pending",
    lab: "19.2",
    mutations: [
      {
        file: durableTasks,
        find: "    states.set(data.task, data.state);",
        replace: "    if (!states.has(data.task)) states.set(data.task, data.state);",
      },
    ],
    says: /每个任务取它最后一条记录的 state/,
  },
  {
    checkpoint: "19",
    name: "新任务可以直接 running：跳过了 pending",
    lab: "19.2",
    mutations: [
      {
        file: durableTasks,
        find: '  if (from === undefined && to === "pending") return;',
        replace: '  if (from === undefined && (to === "pending" || to === "running")) return;',
      },
    ],
    says: /新任务先是 pending：不能直接 running/,
  },
  {
    checkpoint: "19",
    name: "拒绝 running → running：同一次运行的继续请求也被当成倒退",
    lab: "19.2",
    mutations: [
      {
        file: durableTasks,
        find: '  if (from === to && to === "running") return; // a continuation request of the same run\n',
        replace: "",
      },
    ],
    says: /向前一步可以：running → running/,
  },
  {
    checkpoint: "19",
    name: "部分回答拼进了更早的、已经完整回答了的请求的文字",
    lab: "19.4",
    mutations: [
      {
        file: durableRecovery,
        find: '      entry.data.kind === "partial" && (afterLast.has(entry.id) || (lastId !== undefined && entry.parentId === lastId))',
        replace: '      entry.data.kind === "partial" && (afterLast.has(entry.id) || lastId !== undefined)',
      },
    ],
    says: /更早的属于已经完整回答了的请求/,
  },
  {
    checkpoint: "19",
    name: "一个字也没流出，恢复时也造出一条空的中止回答",
    lab: "19.4",
    mutations: [{ file: durableRecovery, find: '  if (text === "") return undefined;\n', replace: "" }],
    says: /没有流出文字就没有部分回答/,
  },
  // Fresh-learner walks after walks A–M (walks N–R): walk Q, chapter 12: silent passes (a stopAt given through a
  // symlink, the order of parseSkillFile's two errors, an unpaired single quote, after hooks when the core tool
  // throws), a throw of trusted() shown without its rule, and an empty skills block blamed on trim().
  {
    checkpoint: "12",
    name: "stopAt 按给的路径用，不换成真实路径",
    lab: "12.1",
    mutations: [
      {
        file: resourceRootsFile,
        find: 'realDir(options.stopAt, "stopAt")',
        replace: "path.resolve(options.stopAt)",
      },
    ],
    says: /经符号链接给出的 stopAt 也用 realDir\(\) 换成真实路径/,
  },
  {
    checkpoint: "12",
    name: "先查 description 再查 name：两样都不合格时报的是 description",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of the reference file as written
        find: '  if (!SKILL_NAME.test(name) || name.length > 64) {\n    throw new Error(`${where}：name "${name}" 要是小写字母、数字与单个连字符（最多 64 个字符）`);\n  }\n  if (description === "") throw new Error(`${where}：缺少 description：写一句这个技能做什么、什么时候用`);\n',
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          '  if (description === "") throw new Error(`${where}：缺少 description：写一句这个技能做什么、什么时候用`);\n  if (!SKILL_NAME.test(name) || name.length > 64) {\n    throw new Error(`${where}：name "${name}" 要是小写字母、数字与单个连字符（最多 64 个字符）`);\n  }\n',
      },
    ],
    says: /先查 name，name 合格了才查 description/,
  },
  {
    checkpoint: "12",
    name: "只查双引号：没配对的单引号不算错",
    lab: "12.3",
    mutations: [
      {
        file: templates,
        find: "if (bare !== undefined && /[\"']/.test(bare)) {",
        replace: 'if (bare !== undefined && /"/.test(bare)) {',
      },
    ],
    says: /没配对的单引号 ' 也是一行错误/,
  },
  {
    checkpoint: "12",
    name: "只有上下文文件、没有技能时也写一段空的技能目录",
    lab: "12.3",
    mutations: [
      {
        file: resourceContext,
        find: "  if (listed.length > 0) {",
        replace: "  if (sections.length > 0 || listed.length > 0) {",
      },
    ],
    says: /技能目录只在有技能时才写/,
  },
  {
    checkpoint: "12",
    name: "trusted() 抛错没有接住：loadExtensions 自己抛出",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of the reference file as written
        find: "    let trusted = false;\n    try {\n      trusted = (await options.trusted(file)) === true;\n    } catch (error) {\n      problem(`扩展 ${file.name} 的信任检查出错，没有加载：${errorMessageOf(error)}`);\n    }\n",
        replace: "    const trusted = (await options.trusted(file)) === true;\n",
      },
    ],
    says: /trusted\(\) 抛错也算不信任：loadExtensions 接住它/,
  },
  {
    checkpoint: "12",
    name: "after 钩子放进 finally：核心工具抛错时也拿着 undefined 运行",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of the reference file as written
        find: "      const output = await tool.execute(args, context);\n      for (const [index, hook] of hooks.after.entries()) {\n        try {\n          await hook(call, output);\n        } catch (error) {\n          report(`第 ${index + 1} 个 after 钩子出错（结果不变）：${errorMessageOf(error)}`);\n        }\n      }\n      return output;\n",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          "      let output: Awaited<ReturnType<typeof tool.execute>> | undefined;\n      try {\n        output = await tool.execute(args, context);\n        return output;\n      } finally {\n        for (const [index, hook] of hooks.after.entries()) {\n          try {\n            await hook(call, output as Awaited<ReturnType<typeof tool.execute>>);\n          } catch (error) {\n            report(`第 ${index + 1} 个 after 钩子出错（结果不变）：${errorMessageOf(error)}`);\n          }\n        }\n      }\n",
      },
    ],
    says: /核心工具抛错时没有核心结果，after 钩子不运行/,
  },
  // Fresh-learner walks after walks A–M (walks N–R): walk S, chapter 12: silent passes (the stopAt error with the
  // given paths, front matter up to the last ---, the trust diagnostic's source, trusted() and the factory not awaited,
  // extensions imported all at once) and lines that blamed another rule (a missing global folder that throws, break
  // after a failed extension, context files reversed, after hooks numbered from 0).
  {
    checkpoint: "12",
    name: "stopAt 不是上级时的错误写调用者给的路径，不是真实路径",
    lab: "12.1",
    mutations: [
      {
        file: resourceRootsFile,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of the reference file as written
        find: "throw new Error(`stopAt ${stopAt} 不是工作区 ${workspace} 或它的上级目录",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        replace: "throw new Error(`stopAt ${options.stopAt} 不是工作区 ${options.workspace} 或它的上级目录",
      },
    ],
    says: /stopAt 不是上级时的错误写出两个真实路径/,
  },
  {
    checkpoint: "12",
    name: "不存在的全局目录也交给 realDir()：抛出“不存在”",
    lab: "12.1",
    mutations: [
      {
        file: resourceRootsFile,
        find: "options.globalDir !== undefined && existsSync(options.globalDir)",
        replace: "options.globalDir !== undefined",
      },
    ],
    says: /不存在的全局目录不算一个根：先看它存不存在（existsSync）/,
  },
  {
    checkpoint: "12",
    name: "前置元数据找到最后一行 ---：正文里的分隔线吞掉正文",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: 'const end = lines.indexOf("---", 1);',
        replace: 'const end = lines.lastIndexOf("---");',
      },
    ],
    says: /前置元数据到第二行 --- 为止/,
  },
  {
    checkpoint: "12",
    name: "上下文文件倒过来写：里层在前",
    lab: "12.3",
    mutations: [
      {
        file: resourceContext,
        find: "  for (const file of contextFiles)\n",
        replace: "  for (const file of [...contextFiles].reverse())\n",
      },
    ],
    says: /先上下文文件（按给的顺序：外层在前，不反转、不重排，各带路径）/,
  },
  {
    checkpoint: "12",
    name: "信任检查出错的诊断 source 写成 file.name",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of the reference file as written
        find: "      problem(`扩展 ${file.name} 的信任检查出错，没有加载：${errorMessageOf(error)}`);",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          "      outcome.diagnostics.push({ source: file.name, message: `扩展 ${file.name} 的信任检查出错，没有加载：${errorMessageOf(error)}` });",
      },
    ],
    says: /信任检查出错的诊断，source 是 file\.path/,
  },
  {
    checkpoint: "12",
    name: "trusted() 不 await：异步答复的 true 被当成不信任",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "trusted = (await options.trusted(file)) === true;",
        replace: "trusted = options.trusted(file) === true;",
      },
    ],
    says: /trusted\(\) 可以是异步的.*先 await options\.trusted\(file\)/,
  },
  {
    checkpoint: "12",
    name: "工厂不 await：异步工厂 await 之后抛错，它先注册的工具照样提交",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "    await module.default(stagingApi(staged));",
        replace: "    module.default(stagingApi(staged));",
      },
    ],
    says: /调用工厂要 await module\.default\(stagingApi\(staged\)\)/,
  },
  {
    checkpoint: "12",
    name: "先把信任的扩展一起 import、暂存，再按顺序提交：两个扩展注册同名的新工具时抛出",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of the reference file as written
        find: "  for (const file of files) {\n    const problem = (message: string) => outcome.diagnostics.push({ source: file.path, message });\n    let trusted = false;\n    try {\n      trusted = (await options.trusted(file)) === true;\n    } catch (error) {\n      problem(`扩展 ${file.name} 的信任检查出错，没有加载：${errorMessageOf(error)}`);\n    }\n    if (!trusted) {\n      outcome.skipped.push(file.path);\n      continue;\n    }\n    let staged: Staged;\n    try {\n      staged = await stage(file, options.registry);\n    } catch (error) {\n      problem(`扩展 ${file.name} 没有加载，什么也没有注册：${errorMessageOf(error)}`);\n      continue;\n    }\n",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          '  const toStage: Resource[] = [];\n  for (const file of files) {\n    const problem = (message: string) => outcome.diagnostics.push({ source: file.path, message });\n    let trusted = false;\n    try {\n      trusted = (await options.trusted(file)) === true;\n    } catch (error) {\n      problem(`扩展 ${file.name} 的信任检查出错，没有加载：${errorMessageOf(error)}`);\n    }\n    if (trusted) toStage.push(file);\n    else outcome.skipped.push(file.path);\n  }\n  const settled = await Promise.allSettled(toStage.map((file) => stage(file, options.registry)));\n  for (const [index, file] of toStage.entries()) {\n    const problem = (message: string) => outcome.diagnostics.push({ source: file.path, message });\n    const result = settled[index] as PromiseSettledResult<Staged>;\n    if (result.status === "rejected") {\n      problem(`扩展 ${file.name} 没有加载，什么也没有注册：${errorMessageOf(result.reason)}`);\n      continue;\n    }\n    const staged = result.value;\n',
      },
    ],
    says: /扩展一个接一个加载：前一个提交（或失败）之后才 import 下一个|一个接一个处理：前一个（gate\.mjs）import 并提交之后，才问下一个/,
  },
  {
    checkpoint: "12",
    name: "一个扩展失败就 break：后面的扩展都不加载",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of the reference file as written
        find: "      problem(`扩展 ${file.name} 没有加载，什么也没有注册：${errorMessageOf(error)}`);\n      continue;",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        replace: "      problem(`扩展 ${file.name} 没有加载，什么也没有注册：${errorMessageOf(error)}`);\n      break;",
      },
    ],
    says: /后面的扩展照常加载：一个扩展失败只是一行诊断，接着处理下一个（continue，不是 break）/,
  },
  {
    checkpoint: "12",
    name: "after 钩子的诊断从 0 数起：第二个钩子说成“第 1 个”",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of the reference file as written
        find: "report(`第 ${index + 1} 个 after 钩子出错",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        replace: "report(`第 ${index} 个 after 钩子出错",
      },
    ],
    says: /它的失败只是一行诊断：“第 N 个 after 钩子出错（结果不变）：…”，N 是 index \+ 1/,
  },
  {
    checkpoint: "12",
    name: '只在词的开头找引号：a"b 当作一个普通参数（walk X #41）',
    lab: "12.3",
    mutations: [{ file: templates, find: "/[\"']/.test(bare)", replace: "/^[\"']/.test(bare)" }],
    says: /不带引号的词里任何位置有 " 或 '（不只是开头：a"b 也是）都是没配对的引号/,
  },
  {
    checkpoint: "12",
    name: "工具钩子返回 { ...output } 副本而不是 output 本身（walk X #44）",
    lab: "12.5",
    mutations: [{ file: toolHooks, find: "      return output;", replace: "      return { ...output };" }],
    says: /返回 output 本身：after 钩子拿到的与调用返回的都是核心工具返回的那个对象/,
  },
  {
    checkpoint: "12",
    name: '拒绝的错误改了措辞：Tool "write" was denied（walk X #34）',
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the lines of the reference file as written
        find: '`Call to tool "${tool.name}" was denied: ',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        replace: '`Tool "${tool.name}" was denied: ',
      },
    ],
    says: /拒绝时抛出的就是这一句 `Call to tool/,
  },
  {
    checkpoint: "01",
    name: "Unhandled value 的 message 末尾多一个句号（walk Z S01）",
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "  throw new Error(`Unhandled value: ${JSON.stringify(value)}`);",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
        replace: "  throw new Error(`Unhandled value: ${JSON.stringify(value)}.`);",
      },
    ],
    says: /逐字就是这一句/,
  },
  {
    checkpoint: "01",
    name: "expected an object 后面加上收到的值（walk Z Q01）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  if (!isRecord(value)) return "expected an object";',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
        replace: "  if (!isRecord(value)) return `expected an object, got ${JSON.stringify(value)}`;",
      },
    ],
    says: /原因是 expected an object：原因逐字照指南的表写/,
  },
  {
    checkpoint: "01",
    name: "unknown event type 前面加上 invalid event:（walk Z Q04）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "      return `unknown event type ${JSON.stringify(value.type)}`;",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
        replace: "      return `invalid event: unknown event type ${JSON.stringify(value.type)}`;",
      },
    ],
    says: /原因是 unknown event type "ping"：原因逐字照指南的表写/,
  },
  {
    checkpoint: "01",
    name: "needs a string delta 后面加上 delta 的类型（walk Z R04）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: ': `"${value.type}" needs a string delta`;',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
        replace: ': `"${value.type}" needs a string delta (got ${typeof value.delta})`;',
      },
    ],
    says: /原因是 "text_delta" needs a string delta：原因逐字照指南的表写/,
  },
  {
    checkpoint: "01",
    name: "原因里的 type 自己加引号，不用 JSON.stringify（walk Z R01）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "      return `unknown event type ${JSON.stringify(value.type)}`;",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
          '      return value.type === undefined ? "unknown event type undefined" : `unknown event type "${String(value.type)}"`;',
      },
    ],
    says: /原因里的 type 是 JSON\.stringify\(value\.type\)：数字不加引号/,
  },
  {
    checkpoint: "01",
    name: '替没有 tag 的 toolCall 补上 type: "toolCall"（walk Z R02）',
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return toolCallProblem(value.toolCall);",
        replace:
          '      return toolCallProblem(isRecord(value.toolCall) ? { type: "toolCall", ...value.toolCall } : value.toolCall);',
      },
    ],
    says: /toolCall 要带 type: "toolCall"/,
  },
  {
    checkpoint: "01",
    name: "done 带了别的字段就拒绝（walk Z R03）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '    case "done":\n      return DONE_REASONS',
        replace:
          '    case "done":\n      if (Object.keys(value).length > 2) return \'"done" needs reason "stop", "toolUse" or "length"\';\n      return DONE_REASONS',
      },
    ],
    says: /多出来的字段不拒绝，每种事件都一样/,
  },
  {
    checkpoint: "01",
    name: "toolcall_end 带了别的字段就拒绝（walk Z R08）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '    case "toolcall_end":\n      return toolCallProblem',
        replace:
          '    case "toolcall_end":\n      if (Object.keys(value).length > 2) return \'"toolcall_end" needs a toolCall object\';\n      return toolCallProblem',
      },
    ],
    says: /多出来的字段不拒绝，每种事件都一样/,
  },
  {
    checkpoint: "01",
    name: "按 type 用对象查表分派，继承来的键名 toString 被查到（walk Z S02）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  switch (value.type) {\n    case "start":',
        replace:
          '  const checks: Record<string, (event: Record<string, unknown>) => string | undefined> = { start: () => undefined };\n  const check = checks[value.type as string];\n  if (check !== undefined) return check(value);\n  switch (value.type) {\n    case "start":',
      },
    ],
    says: /type 逐字比较：不 trim、不改大小写，用 switch 比较，不用对象查表/,
  },
  {
    checkpoint: "01",
    name: "type 先 trim 再比较（walk Z S04）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  switch (value.type) {\n    case "start":',
        replace: '  switch (typeof value.type === "string" ? value.type.trim() : value.type) {\n    case "start":',
      },
    ],
    says: /type 逐字比较：不 trim、不改大小写/,
  },
  {
    checkpoint: "01",
    name: "done 的 reason 不分大小写比较（walk Z S05）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return DONE_REASONS.includes(value.reason)",
        replace:
          '      return DONE_REASONS.some((listed) => typeof value.reason === "string" && String(listed).toLowerCase() === value.reason.toLowerCase())',
      },
    ],
    says: /reason 原样比较：大小写不同的 STOP 不在列表里/,
  },
  {
    checkpoint: "01",
    name: "检查时删掉调用者对象上 message: undefined 的键（walk Z Q26）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '      if (!ERROR_REASONS.includes(value.reason)) return \'"error" needs reason "error" or "aborted"\';\n',
        replace:
          '      if (!ERROR_REASONS.includes(value.reason)) return \'"error" needs reason "error" or "aborted"\';\n      if (value.message === undefined) delete value.message;\n',
      },
    ],
    says: /modelEventProblem 只读不改/,
  },
  {
    checkpoint: "12",
    name: "前置元数据不从第一行开始也认：在整个文件里找第一对 ---（walk Z q02）",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: '  const end = lines.indexOf("---", 1);\n  if (lines[0] !== "---" || end === -1) {',
        replace:
          '  const start = lines.indexOf("---");\n  const end = start < 0 ? -1 : lines.indexOf("---", start + 1);\n  if (end === -1) {',
      },
    ],
    says: /前置元数据从第一行开始：第一行不是 ---/,
  },
  {
    checkpoint: "12",
    name: "前置元数据的键不分大小写：Description 覆盖了 description（walk Z r03）",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: "fields.set(match[1], unquote",
        replace: "fields.set(match[1].toLowerCase(), unquote",
      },
    ],
    says: /键逐字比较：只认小写的 name 与 description/,
  },
  {
    checkpoint: "12",
    name: "$@ 丢掉空串参数（walk Z p14）",
    lab: "12.3",
    mutations: [
      {
        file: templates,
        find: 'if (key === "@") return args.join(" ");',
        replace: 'if (key === "@") return args.filter((arg) => arg !== "").join(" ");',
      },
    ],
    says: /\$@ 是全部参数用一个空格连起来：空串参数也是一个参数/,
  },
  {
    checkpoint: "12",
    name: "参数只按空格切开，制表符不算空白（walk Z q03）",
    lab: "12.3",
    mutations: [{ file: templates, find: "|(\\S+)/g", replace: "|([^ ]+)/g" }],
    says: /按空白切开：制表符与换行也是空白/,
  },
  {
    checkpoint: "12",
    name: "只有模板与扩展时也写出空的技能目录（walk Z r02）",
    lab: "12.3",
    mutations: [{ file: resourceContext, find: "  if (listed.length > 0) {", replace: "  if (skills.length > 0) {" }],
    says: /技能目录只在有技能时才写：只有模板与扩展/,
  },
  {
    checkpoint: "12",
    name: "每个 </context_file> 后面多一个换行（walk Z q16）",
    lab: "12.3",
    mutations: [
      {
        file: resourceContext,
        find: "\\n</context_file>`);",
        replace: "\\n</context_file>\\n`);",
      },
    ],
    says: /一个上下文文件就是一段：<context_file path=…>、内容、<\/context_file> 各占一行/,
  },
  {
    checkpoint: "12",
    name: "skipped 记下文件名而不是完整路径（walk Z p18）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "outcome.skipped.push(file.path);",
        replace: "outcome.skipped.push(file.name);",
      },
    ],
    says: /skipped 记下 file\.path（扩展的完整路径，和 loaded 一样）/,
  },
  {
    checkpoint: "12",
    name: "加载失败的扩展也记进 skipped（walk Z q05）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source lines as written
        find: "没有加载，什么也没有注册：${errorMessageOf(error)}`);\n      continue;",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the source lines as written
          "没有加载，什么也没有注册：${errorMessageOf(error)}`);\n      outcome.skipped.push(file.path);\n      continue;",
      },
    ],
    says: /skipped 只记不被信任的扩展/,
  },
  {
    checkpoint: "12",
    name: "扩展的 before 钩子插到已有钩子前面（unshift）（walk Z p20）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "options.hooks.before.push(...staged.hooks.before);",
        replace: "options.hooks.before.unshift(...staged.hooks.before);",
      },
    ],
    says: /扩展的钩子接到 hooks\.before \/ hooks\.after 后面（push）/,
  },
  {
    checkpoint: "12",
    name: "扩展的 after 钩子插到已有钩子前面（unshift）（walk Z r04）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "options.hooks.after.push(...staged.hooks.after);",
        replace: "options.hooks.after.unshift(...staged.hooks.after);",
      },
    ],
    says: /扩展的钩子接到 hooks\.before \/ hooks\.after 后面（push）/,
  },
  {
    checkpoint: "12",
    name: "先把每个文件的信任都问一遍，再逐个 import（walk Z r01）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "  for (const file of files) {\n    const problem",
        replace:
          "  const answers = new Map<Resource, unknown>();\n  for (const file of files) {\n    try {\n      answers.set(file, await options.trusted(file));\n    } catch (error) {\n      answers.set(file, error instanceof Error ? error : new Error(String(error)));\n    }\n  }\n  for (const file of files) {\n    const problem",
      },
      {
        file: loadExtensionsFile,
        find: "      trusted = (await options.trusted(file)) === true;",
        replace:
          "      const answer = answers.get(file);\n      if (answer instanceof Error) throw answer;\n      trusted = answer === true;",
      },
    ],
    says: /一个接一个处理：前一个（gate\.mjs）import 并提交之后，才问下一个/,
  },
  {
    checkpoint: "12",
    name: "核心工具拿到 {} 而不是这次调用的 context（walk Z q09）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        find: "      const output = await tool.execute(args, context);",
        replace: "      const output = await tool.execute(args, {});",
      },
    ],
    says: /核心工具拿到这次调用的 context/,
  },
  {
    checkpoint: "12",
    name: "失败即拒绝时把钩子的失败写给模型，而不是固定的理由（walk Z p26）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source lines as written
        find: "was denied: ${decision.reason}`",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source lines as written
        replace: "was denied: ${decision.failure ?? decision.reason}`",
      },
    ],
    says: /理由是固定的 a permission check failed, so the call was not run/,
  },
  {
    checkpoint: "12",
    name: "普通的拒绝也留一行诊断（walk Z q08）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        find: "        if (decision.failure !== undefined) {\n",
        replace: "        {\n",
      },
    ],
    says: /普通的拒绝（\{ allow: false, reason \}）不是失败：不留诊断/,
  },
  {
    checkpoint: "12",
    name: "失败即拒绝的诊断没有点名工具（walk Z p24）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source lines as written
        find: "${decision.failure}，${tool.name} 的调用被拒绝",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source lines as written
        replace: "${decision.failure}，调用被拒绝",
      },
    ],
    says: /诊断是一整句“第 N 个 before 钩子…，<工具名> 的调用被拒绝（失败即拒绝）”/,
  },
  {
    checkpoint: "12",
    name: "限时用 || 取默认值：beforeTimeoutMs 0 变成 30 秒（walk Z p27）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        find: "options.beforeTimeoutMs ?? DEFAULT_BEFORE_TIMEOUT_MS",
        replace: "options.beforeTimeoutMs || DEFAULT_BEFORE_TIMEOUT_MS",
      },
    ],
    says: /beforeTimeoutMs: 0 是 0 ms 的限时/,
  },
  {
    checkpoint: "12",
    name: "一个 try 包住整个 after 循环：第一个出错的钩子让后面的不再运行（walk Z p23）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source lines as written
        find: "      for (const [index, hook] of hooks.after.entries()) {\n        try {\n          await hook(call, output);\n        } catch (error) {\n          report(`第 ${index + 1} 个 after 钩子出错（结果不变）：${errorMessageOf(error)}`);\n        }\n      }",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the source lines as written
          "      let index = 0;\n      try {\n        for (const hook of hooks.after) {\n          await hook(call, output);\n          index++;\n        }\n      } catch (error) {\n        report(`第 ${index + 1} 个 after 钩子出错（结果不变）：${errorMessageOf(error)}`);\n      }",
      },
    ],
    says: /第 2 个钩子出错，第 3 个照样运行（每个钩子各自 try\/catch/,
  },
  {
    checkpoint: "01",
    name: "替没有 arguments 的 toolCall 补上 arguments: {}（walk AA P39）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return toolCallProblem(value.toolCall);",
        replace:
          "      if (isRecord(value.toolCall) && value.toolCall.arguments === undefined) value.toolCall.arguments = {};\n      return toolCallProblem(value.toolCall);",
      },
    ],
    says: /modelEventProblem 只读不改/,
  },
  {
    checkpoint: "01",
    name: "toolcall_delta 的一行写出 trim 之后的 delta（walk AA P40）",
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "      return `toolcall_delta ${event.delta}`;",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
        replace: "      return `toolcall_delta ${event.delta.trim()}`;",
      },
    ],
    says: /toolcall_delta 的一行是 toolcall_delta 加一个空格再加 delta：delta 原样写出/,
  },
  {
    checkpoint: "01",
    name: "error 的 reason 先转小写再比较（walk AA P41）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: "      if (!ERROR_REASONS.includes(value.reason)) return",
        replace:
          '      if (typeof value.reason !== "string" || !ERROR_REASONS.includes(value.reason.toLowerCase())) return',
      },
    ],
    says: /reason 原样比较：大小写不同的 Aborted 不在列表里/,
  },
  {
    checkpoint: "01",
    name: "done 的 reason 先 trim 再比较（walk AA P42）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return DONE_REASONS.includes(value.reason) ?",
        replace: '      return typeof value.reason === "string" && DONE_REASONS.includes(value.reason.trim()) ?',
      },
    ],
    says: /reason 原样比较：不 trim，前面多一个空格的 " stop" 不在列表里/,
  },
  {
    checkpoint: "01",
    name: "检查时冻结调用者的对象（walk AA P44）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  if (!isRecord(value)) return "expected an object";',
        replace: '  if (!isRecord(value)) return "expected an object";\n  Object.freeze(value);',
      },
    ],
    says: /modelEventProblem 只读不改.*也不冻结、封住传进来的值/,
  },
  {
    checkpoint: "01",
    name: "检查时就地 trim 调用者对象上的 delta（walk AA P48）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '    case "toolcall_delta":\n      return typeof value.delta === "string"',
        replace:
          '    case "toolcall_delta":\n      if (typeof value.delta === "string") value.delta = value.delta.trim();\n      return typeof value.delta === "string"',
      },
    ],
    says: /modelEventProblem 只读不改/,
  },
  {
    checkpoint: "01",
    name: "error 的 reason 列表多了 length（walk AA P49）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: "      if (!ERROR_REASONS.includes(value.reason)) return",
        replace: '      if (![...ERROR_REASONS, "length"].includes(value.reason)) return',
      },
    ],
    says: /error 的 reason 只有 error、aborted：done 的 length、toolUse 不在 error 的列表里/,
  },
  {
    checkpoint: "12",
    name: "上下文文件重名时也记进 shadowed（walk AA #38）",
    lab: "12.1",
    mutations: [
      {
        file: resourceCatalogue,
        find: '    if (resource.kind === "context") continue;',
        replace:
          '    if (resource.kind === "context") {\n      const earlier = contextFiles.find((file) => file !== resource && file.name === resource.name && contextFiles.indexOf(file) < contextFiles.indexOf(resource));\n      if (earlier !== undefined) shadowed.push({ winner: resource, shadowed: earlier });\n      continue;\n    }',
      },
    ],
    says: /上下文文件不遮挡：shadowed 里没有上下文文件/,
  },
  {
    checkpoint: "12",
    name: "第一行 trim 之后是 --- 就算前置元数据（walk AA #45）",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: 'if (lines[0] !== "---" || end === -1) {',
        replace: 'if (lines[0]?.trim() !== "---" || end === -1) {',
      },
    ],
    says: /第一行就是 ---，逐字比较/,
  },
  {
    checkpoint: "12",
    name: "前置元数据的值按冒号切开，只取第二段（walk AA #40）",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: 'fields.set(match[1], unquote((match[2] ?? "").trim()));',
        replace: 'fields.set(match[1], unquote((line.split(":")[1] ?? "").trim()));',
      },
    ],
    says: /值是第一个冒号之后的全部/,
  },
  {
    checkpoint: "12",
    name: "没配对的引号只说“引号没有配对”，不点名那个词（walk AA #18）",
    lab: "12.3",
    mutations: [
      {
        file: templates,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "throw new Error(`参数 ${word} 里的引号没有配对：用成对的 \"…\" 或 '…' 把带空格的参数包起来`);",
        replace: 'throw new Error("引号没有配对");',
      },
    ],
    says: /没配对的引号是一行错误，原样是/,
  },
  {
    checkpoint: "12",
    name: "信任检查出错的诊断少了“没有加载”（walk AA #13）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "的信任检查出错，没有加载：${errorMessageOf(error)}`",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
        replace: "的信任检查出错：${errorMessageOf(error)}`",
      },
    ],
    says: /信任检查出错留下一行诊断，原样是/,
  },
  {
    checkpoint: "12",
    name: "加载失败的诊断 source 写成 file.name（walk AA #9）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "      problem(`扩展 ${file.name} 没有加载，什么也没有注册：${errorMessageOf(error)}`);",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
          "      outcome.diagnostics.push({ source: file.name, message: `扩展 ${file.name} 没有加载，什么也没有注册：${errorMessageOf(error)}` });",
      },
    ],
    says: /加载失败的诊断，source 同样是 file\.path/,
  },
  {
    checkpoint: "12",
    name: "钩子数组换成新数组，而不是 push 进原来的（walk AA #44）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "    options.hooks.before.push(...staged.hooks.before);",
        replace: "    options.hooks.before = [...options.hooks.before, ...staged.hooks.before];",
      },
    ],
    says: /钩子 push 进传进来的数组/,
  },
  {
    checkpoint: "12",
    name: "核心工具拿到只带 signal 的新 context，进度丢了（walk AA #42）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        find: "      const output = await tool.execute(args, context);",
        replace: "      const output = await tool.execute(args, { signal: context.signal });",
      },
    ],
    says: /核心工具拿到这次调用的 context 本身/,
  },
  {
    checkpoint: "01",
    name: 'type 先 String() 再比较：["start"] 当成 start（walk AB #7）',
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  switch (value.type) {\n    case "start":',
        replace: '  switch (String(value.type)) {\n    case "start":',
      },
    ],
    says: /type 逐字比较：数组 \["start"\] 不是 "start"/,
  },
  {
    checkpoint: "01",
    name: "error 的一行写出 trim 之后的 message（walk AB #23）",
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: ": `error ${event.reason}: ${event.message}`",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
        replace: ": `error ${event.reason}: ${event.message.trim()}`",
      },
    ],
    says: /message 原样写出，开头与结尾的空格、换行也照写，不 trim/,
  },
  {
    checkpoint: "01",
    name: "检查时冻结调用者对象里的 toolCall（walk AB #30）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return toolCallProblem(value.toolCall);",
        replace:
          "      if (isRecord(value.toolCall)) Object.freeze(value.toolCall);\n      return toolCallProblem(value.toolCall);",
      },
    ],
    says: /modelEventProblem 只读不改.*也不冻结、封住传进来的值或它里面的对象/,
  },
  {
    checkpoint: "01",
    name: "delta 只拒绝数字与缺少，null、对象通过了边界（walk AB #37/#38/#40）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '      return typeof value.delta === "string" ? undefined',
        replace: '      return value.delta !== undefined && typeof value.delta !== "number" ? undefined',
      },
    ],
    says: /delta 必须是字符串，null、布尔、对象、数组都不是（检查 typeof delta === "string"/,
  },
  {
    checkpoint: "01",
    name: "done 也检查多出来的 message 字段（walk AB #39）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '    case "done":\n      return DONE_REASONS',
        replace:
          '    case "done":\n      if (value.message !== undefined && typeof value.message !== "string") return \'"error" message must be a string\';\n      return DONE_REASONS',
      },
    ],
    says: /多出来的字段不拒绝，每种事件都一样/,
  },
  {
    checkpoint: "01",
    name: "只把 null、数组、字符串当作不是对象：42 与 undefined 得到 unknown event type（walk AC 34）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  if (!isRecord(value)) return "expected an object";\n  switch (value.type) {',
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          '  if (value === null || Array.isArray(value) || typeof value === "string") return "expected an object";\n  if (!isRecord(value)) return `unknown event type ${JSON.stringify((value as { type?: unknown } | undefined)?.type)}`;\n  switch (value.type) {',
      },
    ],
    says: /不是普通对象的值（数字、布尔、undefined 也是）都是 expected an object/,
  },
  {
    checkpoint: "01",
    name: "text_delta 的一行自己转义引号、反斜杠与换行，漏了制表符（walk AC 43）",
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "      return `text_delta ${JSON.stringify(event.delta)}`;",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
          '      return `text_delta "${event.delta.replace(/\\\\/g, "\\\\\\\\").replace(/"/g, \'\\\\"\').replace(/\\n/g, "\\\\n")}"`;',
      },
    ],
    says: /delta 里的引号、反斜杠、换行、制表符与回车都被转义/,
  },
  {
    checkpoint: "01",
    name: "检查时封住调用者的对象（Object.seal）（walk AC 44）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  if (!isRecord(value)) return "expected an object";',
        replace: '  if (!isRecord(value)) return "expected an object";\n  Object.seal(value);',
      },
    ],
    says: /modelEventProblem 只读不改.*也不冻结、封住传进来的值/,
  },
  {
    checkpoint: "01",
    name: "检查时给调用者的对象加一个不可枚举的标记（walk AC 07）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  if (!isRecord(value)) return "expected an object";',
        replace:
          '  if (!isRecord(value)) return "expected an object";\n  Object.defineProperty(value, "checked", { value: true, enumerable: false, configurable: true });',
      },
    ],
    says: /modelEventProblem 只读不改.*不加隐藏的属性/,
  },
  {
    checkpoint: "01",
    name: "用 instanceof Object 判断普通对象：没有原型的对象被拒绝（walk AC 04）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  return typeof value === "object" && value !== null && !Array.isArray(value);',
        replace: "  return value instanceof Object && !Array.isArray(value);",
      },
    ],
    says: /普通对象就是 isRecord\(\)/,
  },
  {
    checkpoint: "12",
    name: "globalDir 开头的 ~ 展开成家目录（walk AB P100）",
    lab: "12.1",
    mutations: [
      {
        file: resourceRootsFile,
        find: 'import path from "node:path";',
        replace: 'import os from "node:os";\nimport path from "node:path";',
      },
      {
        file: resourceRootsFile,
        find: '    options.globalDir !== undefined && existsSync(options.globalDir)\n      ? [{ kind: "global", dir: realDir(options.globalDir, "全局目录") }]',
        replace:
          '    options.globalDir !== undefined && existsSync(options.globalDir.replace(/^~/, os.homedir()))\n      ? [{ kind: "global", dir: realDir(options.globalDir.replace(/^~/, os.homedir()), "全局目录") }]',
      },
    ],
    says: /本章的代码不展开 ~/,
  },
  {
    checkpoint: "12",
    name: "前置元数据的键 trim 之后再比较：“description ”也算（walk AB P117）",
    lab: "12.2",
    mutations: [
      { file: skills, find: "/^([A-Za-z][\\w-]*):\\s*(.*)$/", replace: "/^([A-Za-z][\\w -]*?)\\s*:\\s*(.*)$/" },
    ],
    says: /键逐字比较，不 trim/,
  },
  {
    checkpoint: "12",
    name: "激活时把整个 SKILL.md（连同前置元数据）当作正文（walk AB P158）",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: "  let text = body;",
        replace: '  let text = body.length >= 0 ? await readFile(skillFile, "utf8") : body;',
      },
    ],
    says: /激活得到的是正文：第二行 --- 之后的部分/,
  },
  {
    checkpoint: "12",
    name: "每个文件问两次 trusted()（walk AB P105）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "      trusted = (await options.trusted(file)) === true;",
        replace: "      trusted = (await options.trusted(file)) === true && (await options.trusted(file)) === true;",
      },
    ],
    says: /每个文件按顺序只问一次 trusted\(\)/,
  },
  {
    checkpoint: "12",
    name: "import() 写在 try 外面：顶层代码抛错的扩展让 loadExtensions 抛出（walk AB P130）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "    let staged: Staged;",
        replace: "    await import(pathToFileURL(file.path).href);\n    let staged: Staged;",
      },
    ],
    says: /一个坏文件从不让 loadExtensions 抛出：import\(\) 也在 try 里/,
  },
  {
    checkpoint: "12",
    name: "before 钩子拿到整个 context，而不是 { signal }（walk AB P67）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        find: "hook(call, { signal: context.signal })",
        replace: "hook(call, context)",
      },
    ],
    says: /钩子只拿到 \{ signal: context\.signal \}/,
  },
  {
    checkpoint: "01",
    name: "检查时把调用者对象的 type 设成不可写（walk AD #59）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  if (!isRecord(value)) return "expected an object";',
        replace:
          '  if (!isRecord(value)) return "expected an object";\n  Object.defineProperty(value, "type", { writable: false });',
      },
    ],
    says: /modelEventProblem 只读不改.*不改属性的可写、可枚举/,
  },
  {
    checkpoint: "01",
    name: "检查前把 toolCall 换成一个副本（walk AD #60）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return toolCallProblem(value.toolCall);",
        replace:
          "      if (isRecord(value.toolCall)) value.toolCall = { ...value.toolCall };\n      return toolCallProblem(value.toolCall);",
      },
    ],
    says: /里面的对象（toolCall、arguments）还是原来那几个，不是换上的副本/,
  },
  {
    checkpoint: "01",
    name: "检查时就地 trim error 的 message（walk AE #17）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '      if (!ERROR_REASONS.includes(value.reason)) return \'"error" needs reason "error" or "aborted"\';\n',
        replace:
          '      if (!ERROR_REASONS.includes(value.reason)) return \'"error" needs reason "error" or "aborted"\';\n      if (typeof value.message === "string") value.message = value.message.trim();\n',
      },
    ],
    says: /modelEventProblem 只读不改/,
  },
  {
    checkpoint: "01",
    name: "toolcall_end 先查 toolCall.id 再交给 toolCallProblem()（walk AE #31）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return toolCallProblem(value.toolCall);",
        replace:
          '      if (isRecord(value.toolCall) && typeof value.toolCall.id !== "string") return "toolCall needs a string id and name";\n      return toolCallProblem(value.toolCall);',
      },
    ],
    says: /toolCallProblem\(\) 先查 tag 再查 id/,
  },
  {
    checkpoint: "01",
    name: "type 为假值就当作没有 type（walk AE #39）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  if (!isRecord(value)) return "expected an object";\n  switch (value.type) {',
        replace:
          '  if (!isRecord(value)) return "expected an object";\n  if (!value.type) return "unknown event type undefined";\n  switch (value.type) {',
      },
    ],
    says: /空串、0、null 也是一个 type/,
  },
  {
    checkpoint: "01",
    name: "aborted 的 error 一行不写 message（walk AE #41）",
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return event.message === undefined ?",
        replace: '      return event.message === undefined || event.reason === "aborted" ?',
      },
    ],
    says: /error 事件的一行应当是 error aborted: 用户按了 Esc/,
  },
  {
    checkpoint: "01",
    name: "toolCall 里面多出来的字段被拒绝（walk AE #45）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return toolCallProblem(value.toolCall);",
        replace:
          "      if (isRecord(value.toolCall) && Object.keys(value.toolCall).length > 4) return '\"toolcall_end\" needs a toolCall object';\n      return toolCallProblem(value.toolCall);",
      },
    ],
    says: /多出来的字段不拒绝，每种事件都一样/,
  },
  {
    checkpoint: "01",
    name: "检查时就地 trim toolCall.name（walk AE #54）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return toolCallProblem(value.toolCall);",
        replace:
          '      if (isRecord(value.toolCall) && typeof value.toolCall.name === "string") value.toolCall.name = value.toolCall.name.trim();\n      return toolCallProblem(value.toolCall);',
      },
    ],
    says: /modelEventProblem 只读不改/,
  },
  {
    checkpoint: "01",
    name: "检查时给没有原型的输入换上 Object.prototype（walk AE #52）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  if (!isRecord(value)) return "expected an object";',
        replace:
          '  if (!isRecord(value)) return "expected an object";\n  if (Object.getPrototypeOf(value) === null) Object.setPrototypeOf(value, Object.prototype);',
      },
    ],
    says: /modelEventProblem 只读不改.*不换成副本/,
  },
  {
    checkpoint: "12",
    name: "上下文文件按名字排序（walk AC 06）",
    lab: "12.1",
    mutations: [
      {
        file: resourceCatalogue,
        find: '  const contextFiles = found.filter((resource) => resource.kind === "context");',
        replace:
          '  const contextFiles = found\n    .filter((resource) => resource.kind === "context")\n    .sort((a, b) => compare(a.name, b.name));',
      },
    ],
    says: /上下文文件按给的顺序（根的顺序），不按名字排序/,
  },
  {
    checkpoint: "12",
    name: "遮挡的键不分大小写：Review 与 review 互相遮住（walk AC 23）",
    lab: "12.1",
    mutations: [
      {
        file: resourceCatalogue,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "    const key = `${resource.kind}\\u0000${resource.name}`;",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
        replace: "    const key = `${resource.kind}\\u0000${resource.name.toLowerCase()}`;",
      },
    ],
    says: /名称逐字比较：Review 与 review 是两个资源/,
  },
  {
    checkpoint: "12",
    name: "引号里的参数 trim 掉空格（walk AC 24）",
    lab: "12.3",
    mutations: [
      {
        file: templates,
        find: '    args.push(double ?? single ?? bare ?? "");',
        replace: '    args.push((double ?? single)?.trim() ?? bare ?? "");',
      },
    ],
    says: /引号里的原样是一个参数：开头与结尾的空格也是参数的一部分/,
  },
  {
    checkpoint: "12",
    name: "制表符缩进的行也当作字段（walk AC 26）",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: "    const match = /^([A-Za-z][\\w-]*):\\s*(.*)$/.exec(line);",
        replace: "    const match = /^\\t?([A-Za-z][\\w-]*):\\s*(.*)$/.exec(line);",
      },
    ],
    says: /缩进的行不是字段：制表符缩进也是缩进/,
  },
  {
    checkpoint: "12",
    name: "正文去掉开头的空行与缩进（walk AC 29）",
    lab: "12.2",
    mutations: [
      {
        file: skills,
        find: '  return { name, description, body: lines.slice(end + 1).join("\\n") };',
        replace: '  return { name, description, body: lines.slice(end + 1).join("\\n").trimStart() };',
      },
    ],
    says: /正文是第二行 --- 之后的全部，原样/,
  },
  {
    checkpoint: "12",
    name: "after 钩子倒着运行（walk AC 20）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        find: "      for (const [index, hook] of hooks.after.entries()) {",
        replace: "      for (const [index, hook] of [...hooks.after.entries()].reverse()) {",
      },
    ],
    says: /after 钩子按登记的顺序运行/,
  },
  {
    checkpoint: "12",
    name: "after 钩子的诊断用 String(error)，多了 Error: 前缀（walk AC 32）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source line as it is written
        find: "after 钩子出错（结果不变）：${errorMessageOf(error)}`);",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's line as written
        replace: "after 钩子出错（结果不变）：${String(error)}`);",
      },
    ],
    says: /不带 Error: 前缀/,
  },
  {
    checkpoint: "01",
    name: "start 遇到不是字符串的 model 字段就拒绝（walk AF P48）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '    case "start":\n      return undefined;',
        replace:
          '    case "start":\n      return value.model === undefined || typeof value.model === "string" ? undefined : "expected an object";',
      },
    ],
    says: /多出来的字段不拒绝，每种事件都一样/,
  },
  {
    checkpoint: "01",
    name: "delta 事件的 index 不是数字就拒绝（walk AF P46）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '    case "toolcall_delta":\n      return typeof value.delta === "string"',
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          '    case "toolcall_delta":\n      if (value.index !== undefined && typeof value.index !== "number") return `"${value.type}" needs a string delta`;\n      return typeof value.delta === "string"',
      },
    ],
    says: /多出来的字段不拒绝，每种事件都一样/,
  },
  {
    checkpoint: "01",
    name: "任何事件带了不是字符串的 delta 就拒绝（walk AG #41）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  if (!isRecord(value)) return "expected an object";\n  switch (value.type) {',
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          '  if (!isRecord(value)) return "expected an object";\n  if (value.delta !== undefined && typeof value.delta !== "string") return `"${String(value.type)}" needs a string delta`;\n  switch (value.type) {',
      },
    ],
    says: /多出来的字段不拒绝，每种事件都一样/,
  },
  {
    checkpoint: "01",
    name: "start 带了不是列表里的 reason 就拒绝（walk AG #52）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '    case "start":\n      return undefined;',
        replace:
          '    case "start":\n      return value.reason === undefined || DONE_REASONS.includes(value.reason) ? undefined : \'"done" needs reason "stop", "toolUse" or "length"\';',
      },
    ],
    says: /多出来的字段不拒绝，每种事件都一样/,
  },
  {
    checkpoint: "01",
    name: "default 里直接 throw，不调用 unreachable(event)：漏掉一个 case 也编译得过（walk AH P43）",
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        find: "    default:\n      return unreachable(event);",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        replace: "    default:\n      throw new Error(`Unhandled value: ${JSON.stringify(event)}`);",
      },
    ],
    says: /default 分支写 return unreachable\(event\)/,
  },
  {
    checkpoint: "01",
    name: "unreachable(event as never)：as 关掉了穷尽检查（walk AH P44）",
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return unreachable(event);",
        replace: "      return unreachable(event as never);",
      },
    ],
    says: /也不写 unreachable\(event as never\)/,
  },
  {
    checkpoint: "01",
    name: "aborted 的 message 为空串时拒绝（walk AH P35）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '      if (!ERROR_REASONS.includes(value.reason)) return \'"error" needs reason "error" or "aborted"\';',
        replace:
          '      if (!ERROR_REASONS.includes(value.reason)) return \'"error" needs reason "error" or "aborted"\';\n      if (value.reason === "aborted" && value.message === "") return \'"error" message must be a string\';',
      },
    ],
    says: /空的也是字符串.*error 与 aborted 都一样/,
  },
  {
    checkpoint: "01",
    name: "aborted 带着值为 undefined 的 message 键就拒绝（walk AH P36）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '      if (!ERROR_REASONS.includes(value.reason)) return \'"error" needs reason "error" or "aborted"\';',
        replace:
          '      if (!ERROR_REASONS.includes(value.reason)) return \'"error" needs reason "error" or "aborted"\';\n      if (value.reason === "aborted" && "message" in value && value.message === undefined) return \'"error" message must be a string\';',
      },
    ],
    says: /不看 "message" in value（error 与 aborted 都一样）/,
  },
  {
    checkpoint: "01",
    name: "只在 toolcall_delta 里把字符串 index 改成数字（walk AH P39）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '    case "toolcall_delta":\n      return typeof value.delta',
        replace:
          '    case "toolcall_delta":\n      if (value.type === "toolcall_delta" && typeof value.index === "string") value.index = Number(value.index);\n      return typeof value.delta',
      },
    ],
    says: /modelEventProblem 只读不改/,
  },
  {
    checkpoint: "01",
    name: "aborted 的空串 message 省掉冒号（walk AI #57）",
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return event.message === undefined ?",
        replace: '      return event.message === undefined || (event.reason === "aborted" && event.message === "") ?',
      },
    ],
    says: /空字符串也是 message：只在没有 message 字段时省略冒号（看 === undefined，不看真假；error 与 aborted 都一样）/,
  },
  {
    checkpoint: "01",
    name: 'aborted 看 "message" in event（walk AI #60）',
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        find: "      return event.message === undefined ?",
        replace: '      return (event.reason === "aborted" ? !("message" in event) : event.message === undefined) ?',
      },
    ],
    says: /message 是 undefined 时省略冒号.*error aborted: undefined；error 与 aborted 都一样/,
  },
  {
    checkpoint: "01",
    name: "length 写成 done stop（walk AI #61）",
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        find: "      return `done ${event.reason}`;",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        replace: '      return event.reason === "length" ? "done stop" : `done ${event.reason}`;',
      },
    ],
    says: /done 的一行是 done <reason>，原样写出它的 reason/,
  },
  {
    checkpoint: "01",
    name: "stop 省掉 reason，只写 done（walk AI #62）",
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        find: "      return `done ${event.reason}`;",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        replace: '      return event.reason === "stop" ? "done" : `done ${event.reason}`;',
      },
    ],
    says: /done 的一行是 done <reason>，原样写出它的 reason/,
  },
  {
    checkpoint: "01",
    name: "拆开只有一个元素的数组去检查里面的事件（walk AJ #13）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        find: '  if (!isRecord(value)) return "expected an object";',
        replace:
          '  if (Array.isArray(value)) return value.length === 1 ? modelEventProblem(value[0]) : "expected an object";\n  if (!isRecord(value)) return "expected an object";',
      },
    ],
    says: /装着一个合法事件的数组也是 expected an object/,
  },
  {
    checkpoint: "12",
    name: "什么也没注册的扩展不记进 loaded（walk AG #51）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "    for (const tool of staged.tools) options.registry.register(tool);",
        replace:
          "    for (const tool of staged.tools) options.registry.register(tool);\n    if (staged.tools.length === 0 && staged.hooks.before.length === 0 && staged.hooks.after.length === 0) continue;",
      },
    ],
    says: /工厂成功就记进 loaded，什么也没注册的扩展（f-quiet\.mjs）也是加载了/,
  },
  {
    checkpoint: "01",
    name: "字符串 type 自己加引号、只转义引号（walk AK #39）",
    lab: "1.2",
    mutations: [
      {
        file: modelEventCheck,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        find: "      return `unknown event type ${JSON.stringify(value.type)}`;",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          '      return typeof value.type === "string" ? `unknown event type "${value.type.replace(/"/g, \'\\\\"\')}"` : `unknown event type ${JSON.stringify(value.type)}`;',
      },
    ],
    says: /反斜杠与换行也被转义/,
  },
  {
    checkpoint: "01",
    name: "unreachable() 抛出 TypeError（walk AL #35）",
    lab: "1.1",
    mutations: [
      {
        file: modelEventCheck,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        find: "  throw new Error(`Unhandled value: ${JSON.stringify(value)}`);",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
        replace: "  throw new TypeError(`Unhandled value: ${JSON.stringify(value)}`);",
      },
    ],
    says: /unreachable\(\) 抛出的就是 new Error\(\.\.\.\)：不是 TypeError/,
  },
  {
    checkpoint: "12",
    name: "单引号里的参数把 $ 加倍（walk AF 21）",
    lab: "12.3",
    mutations: [
      {
        file: templates,
        find: '    args.push(double ?? single ?? bare ?? "");',
        replace: '    args.push(double ?? single?.replace(/\\$/g, "$$$$") ?? bare ?? "");',
      },
    ],
    says: /参数里的 \$ 不转义、不展开、不加倍/,
  },
  {
    checkpoint: "12",
    name: "模板文件的 \\r\\n 改成 \\n（walk AF 76）",
    lab: "12.3",
    mutations: [
      {
        file: templates,
        find: 'readFileSync(template.path, "utf8");',
        replace: 'readFileSync(template.path, "utf8").replace(/\\r\\n/g, "\\n");',
      },
    ],
    says: /Windows 的 \\r\\n 也不改成 \\n/,
  },
  {
    checkpoint: "12",
    name: "目录用 localeCompare 排序（walk AF 04）",
    lab: "12.1",
    mutations: [
      {
        file: resourceCatalogue,
        find: ".sort((a, b) => compare(a.kind, b.kind) || compare(a.name, b.name));",
        replace: ".sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));",
      },
    ],
    says: /先按种类、再按名称（逐个码元比较，不看语言环境）排列/,
  },
  {
    checkpoint: "12",
    name: "shadowed 按名字排序（walk AE p06b）",
    lab: "12.1",
    mutations: [
      {
        file: resourceCatalogue,
        find: "  const resources = [...winners.values()]",
        replace:
          "  shadowed.sort((a, b) => compare(a.shadowed.name, b.shadowed.name));\n  const resources = [...winners.values()]",
      },
    ],
    says: /shadowed 按被遮住的先后记：不按名字排序/,
  },
  {
    checkpoint: "12",
    name: "shadowed 把同名的归到一起（walk AE p111）",
    lab: "12.1",
    mutations: [
      {
        file: resourceCatalogue,
        find: "  const resources = [...winners.values()]",
        replace:
          "  const keys = [...new Set(shadowed.map((s) => s.shadowed.name))];\n  shadowed.sort((a, b) => keys.indexOf(a.shadowed.name) - keys.indexOf(b.shadowed.name));\n  const resources = [...winners.values()]",
      },
    ],
    says: /也不把同名的归到一起/,
  },
  {
    checkpoint: "12",
    name: "$10 读成第 10 个参数（walk AE p104）",
    lab: "12.3",
    mutations: [
      {
        file: templates,
        find: "source.replace(/\\$([1-9@$])/g,",
        replace: "source.replace(/\\$([1-9][0-9]*|[@$])/g,",
      },
    ],
    says: /\$10 是 \$1 后面跟一个字面的 0/,
  },
  {
    checkpoint: "12",
    name: "上下文文件按路径排序再写（walk AE p126）",
    lab: "12.3",
    mutations: [
      {
        file: resourceContext,
        find: "  for (const file of contextFiles)\n",
        replace: "  for (const file of [...contextFiles].sort((a, b) => (a.path < b.path ? -1 : 1)))\n",
      },
    ],
    says: /上下文文件按给的顺序写.*不按路径或名字排序/,
  },
  {
    checkpoint: "12",
    name: "提交时倒着注册一个扩展的工具（walk AE p121）",
    lab: "12.4",
    mutations: [
      {
        file: loadExtensionsFile,
        find: "    for (const tool of staged.tools) options.registry.register(tool);",
        replace: "    for (const tool of [...staged.tools].reverse()) options.registry.register(tool);",
      },
    ],
    says: /staged 的工具按扩展注册它们的先后逐个 registry\.register\(\)/,
  },
  {
    checkpoint: "12",
    name: "核心工具的错误包成新的 Error（walk AE p107）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        find: "      const output = await tool.execute(args, context);",
        replace:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the learner's lines as written
          "      const output = await tool.execute(args, context).catch((error: unknown) => {\n        throw new Error(`${tool.name} 失败：${errorMessageOf(error)}`);\n      });",
      },
    ],
    says: /包装后的 execute 拒绝的就是核心工具抛出的那个错误对象本身/,
  },
  {
    checkpoint: "12",
    name: "核心工具拿到 context 的副本 { ...context }（walk AD 43）",
    lab: "12.5",
    mutations: [
      {
        file: toolHooks,
        find: "      const output = await tool.execute(args, context);",
        replace: "      const output = await tool.execute(args, { ...context });",
      },
    ],
    says: /核心工具拿到这次调用的 context 本身：tool\.execute\(args, context\)，同一个对象/,
  },
];
