// Checkpoint 05 · 学习脚手架（6 个教学文件的第 3 个）：数据块的形状。shown() 与 isObject() 已经写好；Lab 5.3 的 chunkProblem()
// 先抛出“尚未实现”。完成 `// Lab 5.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/ai
//   node --test --test-name-pattern="坏形状" packages/pi-ai/dist/test/05-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
// A data line that parses as JSON is held to the shape ChunkMapper reads, so that a server sending
// an array, `choices: null` or a null tool-call fragment ends the turn with one line naming what
// arrived, not "no finish_reason" or a TypeError from inside the mapper. Null where servers
// commonly send it (a null delta, null tool_calls or content) stays accepted.

const SHOWN = 80;

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What is wrong with a parsed data line as a chat chunk, or undefined when ChunkMapper can read it. */
export function chunkProblem(chunk: unknown): string | undefined {
  // Lab 5.3 ①：从外到内检查，返回第一处问题（每句都用 shown() 说出收到的值）；能读就返回 undefined：
  //   chunk 不是对象           → `a data line holds ${shown(chunk)}, not a chunk object`
  //   choices 缺省             → undefined（只有 usage 的块）；不是数组 → `a chunk's choices is ${shown(choices)}, not a list`
  //   choices[i] 不是对象      → `a chunk's choices[${i}] is …, not an object`
  //   delta 是 undefined/null  → 跳过这一项；不是对象 → `a chunk's choices[${i}].delta is …, not an object`
  //   delta.tool_calls 是 undefined/null → 跳过；不是数组 → `a chunk's choices[${i}].delta.tool_calls is …, not a list`
  //   tool_calls 里第 j 项不是对象 → `a chunk's choices[${i}].delta.tool_calls[${j}] is …, not an object`
  throw new Error("Lab 5.3 拒绝坏形状的数据块 尚未实现");
}
