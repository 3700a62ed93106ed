import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import type { ModelEvent } from "../src/index.js";
import { eventLine, isModelEvent, modelEventProblem, unreachable } from "../src/model-event-check.js";

const readCall = { type: "toolCall" as const, id: "call-1", name: "read", arguments: { path: "README.md" } };

/** One event of every kind, with the line a trace prints for it. */
const everyKind: [ModelEvent, string][] = [
  [{ type: "start" }, "start"],
  [{ type: "text_delta", delta: "我先读取项目说明。" }, 'text_delta "我先读取项目说明。"'],
  [{ type: "toolcall_delta", delta: '{"path":"README.md"}' }, 'toolcall_delta {"path":"README.md"}'],
  [{ type: "toolcall_end", toolCall: readCall }, "toolcall_end call-1 read"],
  [{ type: "done", reason: "toolUse" }, "done toolUse"],
  [{ type: "error", reason: "error", message: "overloaded" }, "error error: overloaded"],
  [{ type: "error", reason: "aborted" }, "error aborted"],
  [{ type: "error", reason: "aborted", message: "用户按了 Esc" }, "error aborted: 用户按了 Esc"],
];

test("穷尽：每一种 ModelEvent 都有自己的一行，终态 done 与 error 带上原因", () => {
  for (const [event, line] of everyKind) {
    const why =
      event.type === "toolcall_delta"
        ? "：toolcall_delta 的 delta 是工具参数 JSON 的一段，原样写出，不 JSON.stringify（只有 text_delta 用 JSON.stringify）"
        : "";
    assert.equal(eventLine(event), line, `${event.type} 事件的一行应当是 ${line}${why}`);
  }
  for (const reason of ["error", "aborted"] as const) {
    assert.equal(
      eventLine({ type: "error", reason, message: "" }),
      `error ${reason}: `,
      `有 message 字段就写成 error <reason>: <message>，空字符串也是 message：只在没有 message 字段时省略冒号（看 === undefined，不看真假；error 与 aborted 都一样）`,
    );
    assert.equal(
      eventLine({ type: "error", reason, message: undefined }),
      `error ${reason}`,
      `message 是 undefined 时省略冒号：看 message === undefined，不看 "message" in event（{ message: undefined } 有这个键，却没有 message，不写成 error ${reason}: undefined；error 与 aborted 都一样）`,
    );
  }
  for (const reason of ["stop", "toolUse", "length"] as const) {
    assert.equal(
      eventLine({ type: "done", reason }),
      `done ${reason}`,
      `done 的一行是 done <reason>，原样写出它的 reason（stop、toolUse、length 各是各的）`,
    );
  }
  assert.equal(
    eventLine({ type: "text_delta", delta: '路径是 "C:\\tmp"\n下一行\t制表\r回车' }),
    'text_delta "路径是 \\"C:\\\\tmp\\"\\n下一行\\t制表\\r回车"',
    "text_delta 的一行是 text_delta 加上 JSON.stringify(delta)，不是自己加引号：delta 里的引号、反斜杠、换行、制表符与回车都被转义，一个事件只占一行",
  );
  assert.equal(
    eventLine({ type: "error", reason: "error", message: "  磁盘满了\n" }),
    "error error:   磁盘满了\n",
    "error 的一行是 error <reason>: <message>：message 原样写出，开头与结尾的空格、换行也照写，不 trim",
  );
  assert.equal(
    eventLine({ type: "toolcall_delta", delta: ' "path": "a.ts" ' }),
    'toolcall_delta  "path": "a.ts" ',
    "toolcall_delta 的一行是 toolcall_delta 加一个空格再加 delta：delta 原样写出，开头与结尾的空格也是参数 JSON 的一部分，不 trim",
  );
  assert.equal(
    eventLine({ type: "text_delta", delta: "  缩进的一行\n" }),
    'text_delta "  缩进的一行\\n"',
    "text_delta 的一行是 text_delta 加上 JSON.stringify(delta)：delta 原样写出，开头与结尾的空格、换行也是模型的输出，不 trim",
  );
});

test("穷尽：绕过编译器漏进来的事件落到 never 分支，抛出写明这个值的错误", async () => {
  const smuggled = JSON.parse('{"type":"ping"}') as ModelEvent;
  assert.throws(
    () => unreachable("x" as never),
    (thrown) => thrown instanceof Error,
    "unreachable() 抛出 Error（不是字符串），message 是 Unhandled value: 加上 JSON.stringify(value)：throw new Error(...)",
  );
  assert.throws(
    () => unreachable("x" as never),
    (thrown) => thrown instanceof Error && thrown.constructor === Error,
    "unreachable() 抛出的就是 new Error(...)：不是 TypeError、RangeError 这样的子类（它不是参数类型错，是程序漏了一个 case）",
  );
  assert.throws(
    () => eventLine(smuggled),
    { message: 'Unhandled value: {"type":"ping"}' },
    "未知的 type 不能被当成某种已知事件：default 里的 unreachable(event) 抛出 Unhandled value: 加上 JSON.stringify(value)，逐字就是这一句（一行，不加缩进，前后不加别的字）",
  );
  assert.throws(() => unreachable("x" as never), /Unhandled value: "x"/, "unreachable 总是抛出，并写明它收到的值");
  // Never called: a compile-time check. If unreachable() took unknown instead of never, this directive would be unused
  // and the build would stop here.
  // @ts-expect-error unreachable() 的参数类型是 never：传入一个真实的值就编译不过，漏掉一个 case 编译不过正是因此
  void (() => unreachable("x"));
  const errors = (await compileWithNewEventKind())
    .split("\n")
    .filter((line) => line.startsWith("model-event-check.ts("))
    .join("\n");
  assert.match(
    errors || "（加了一种新事件，model-event-check.ts 照样编译通过，没有错误）",
    /model-event-check\.ts\(\d+,\d+\): error TS\d+:.*never/,
    "穷尽靠编译器：给 ModelEvent 加一种新事件而 eventLine() 没有它的 case 时，构建必须失败。default 分支写 return unreachable(event)：不换成不经 never 检查的 throw new Error(...)，也不写 unreachable(event as never)",
  );
});

/**
 * Compiles this tree's model-event-check.ts against a ModelEvent with one more kind, { type: "ping" }, and returns
 * tsc's error lines: the missing case must be a build error in eventLine().
 */
async function compileWithNewEventKind(): Promise<string> {
  const src = fileURLToPath(new URL("../../src/", import.meta.url));
  const dir = await mkdtemp(path.join(os.tmpdir(), "pi-course-01-never-"));
  try {
    for (const file of ["messages.ts", "model-event-check.ts"]) {
      await writeFile(path.join(dir, file), await readFile(path.join(src, file), "utf8"));
    }
    const model = await readFile(path.join(src, "model.ts"), "utf8");
    assert.ok(model.includes("export type ModelEvent ="), "model.ts 里有 ModelEvent 联合类型");
    await writeFile(
      path.join(dir, "model.ts"),
      model.replace("export type ModelEvent =", 'export type ModelEvent =\n  | { type: "ping" }'),
    );
    await writeFile(path.join(dir, "package.json"), '{ "type": "module" }\n');
    const options = [
      "--strict",
      "--noEmit",
      "--target",
      "es2022",
      "--lib",
      "es2022",
      "--module",
      "nodenext",
      "--types",
      "",
    ];
    const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin/tsc");
    const files = ["messages.ts", "model.ts", "model-event-check.ts"];
    return await new Promise<string>((resolve) => {
      execFile(process.execPath, [tsc, ...options, ...files], { cwd: dir }, (_error, stdout) => resolve(stdout));
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs the check on `value` and asserts it left the value as it was: the check only reads. */
function problemOf(value: unknown): string | undefined {
  const before = snapshot(value);
  const problem = modelEventProblem(value);
  assertUnchanged(value, before);
  return problem;
}

interface Snapshot {
  /** A deep copy of the values. */
  copy: unknown;
  /** The objects inside, in a fixed order: the same objects must be there afterwards, not copies. */
  objects: object[];
  /** One line per object and per own property: extensible or not, and each property's attributes. */
  shape: string[];
}

function snapshot(value: unknown): Snapshot {
  const objects: object[] = [];
  const shape: string[] = [];
  const visit = (part: unknown, where: string) => {
    if (typeof part !== "object" || part === null) return;
    objects.push(part);
    const prototype = Object.getPrototypeOf(part);
    const kind = prototype === null ? "没有原型" : prototype === Object.prototype ? "普通对象" : "数组或别的";
    shape.push(`${where}：${kind}，${Object.isExtensible(part) ? "可扩展" : "冻结或封住了"}`);
    for (const key of Reflect.ownKeys(part)) {
      const property = Reflect.getOwnPropertyDescriptor(part, key) ?? {};
      const flags = [property.writable, property.enumerable, property.configurable].map((flag) => (flag ? "是" : "否"));
      shape.push(`${where}.${String(key)}：可写 ${flags[0]}，可枚举 ${flags[1]}，可配置 ${flags[2]}`);
      visit(property.value, `${where}.${String(key)}`);
    }
  };
  visit(value, "值");
  return { copy: structuredClone(value), objects, shape };
}

function assertUnchanged(value: unknown, before: Snapshot): void {
  const readOnly = `modelEventProblem 只读不改：检查之后 ${JSON.stringify(before.copy)} 与检查之前一样（不删键、不补字段、不加隐藏的属性、不改写、不 trim、不换成副本，也不冻结、封住传进来的值或它里面的对象，不改属性的可写、可枚举，不换原型）`;
  const after = snapshot(value);
  assert.deepEqual(after.shape, before.shape, readOnly);
  assert.ok(
    after.objects.length === before.objects.length &&
      after.objects.every((part, index) => part === before.objects[index]),
    `${readOnly}：里面的对象（toolCall、arguments）还是原来那几个，不是换上的副本`,
  );
  assert.deepEqual(structuredClone(value), before.copy, readOnly);
}

test("边界：JSON.parse 得到的 unknown 通过检查后才当作 ModelEvent，合法的事件原样通过", () => {
  const everyReason = [
    ...["stop", "toolUse", "length"].map((reason) => ({ type: "done", reason })),
    ...["error", "aborted"].map((reason) => ({ type: "error", reason })),
  ];
  for (const legal of everyReason) {
    assert.equal(
      problemOf(legal),
      undefined,
      `${JSON.stringify(legal)} 是合法的 ${legal.type} 事件，modelEventProblem 应当返回 undefined：reason 在各自的列表里就合法，列表里的每一个都接受（done：stop、toolUse、length；error：error、aborted）`,
    );
  }
  assert.equal(
    problemOf(Object.assign(Object.create(null), { type: "start" })),
    undefined,
    "普通对象就是 isRecord()：typeof 为 object、不是 null、不是数组；没有原型的对象（Object.create(null)）也是，不用 instanceof Object 判断",
  );
  for (const [event] of everyKind) {
    const parsed: unknown = JSON.parse(JSON.stringify(event));
    assert.equal(
      problemOf(parsed),
      undefined,
      `合法的 ${event.type} 事件没有问题：modelEventProblem 返回 undefined（不是空串或别的值）`,
    );
    assert.equal(isModelEvent(parsed), true, `isModelEvent 接受合法的 ${event.type} 事件`);
  }
  for (const extra of [
    { type: "start", model: "qwen" },
    { type: "text_delta", delta: "hi", index: 0 },
    { type: "toolcall_delta", delta: "{", index: 0 },
    { type: "toolcall_end", toolCall: readCall, index: 0 },
    { type: "toolcall_end", toolCall: { ...readCall, name: " read ", index: 0, extra: { note: "x" } } },
    { type: "error", reason: "error", message: "  超时了 \n" },
    { type: "done", reason: "stop", usage: { output: 3 } },
    { type: "done", reason: "stop", message: 5 },
    { type: "start", message: null },
    { type: "start", model: null },
    { type: "text_delta", delta: "hi", index: "0" },
    { type: "toolcall_delta", delta: "{", index: null },
    { type: "toolcall_delta", delta: "{", index: "0" },
    { type: "start", delta: 5, reason: ["x"], toolCall: null },
    { type: "text_delta", delta: "a", reason: 1, toolCall: "x" },
    { type: "toolcall_delta", delta: "{", reason: 5, toolCall: false },
    { type: "toolcall_end", toolCall: readCall, delta: 1, reason: null },
    { type: "done", reason: "stop", delta: null, toolCall: 1 },
    { type: "error", reason: "error", delta: {}, toolCall: [] },
    { type: "error", reason: "error", message: "overloaded", status: 529 },
  ]) {
    assert.equal(
      problemOf(extra),
      undefined,
      `多出来的字段不拒绝，每种事件都一样：只检查协议要的字段（${JSON.stringify(extra)} 是合法的 ${extra.type} 事件）`,
    );
  }
  for (const reason of ["error", "aborted"]) {
    assert.equal(
      problemOf({ type: "error", reason, message: undefined }),
      undefined,
      `{ type: "error", reason: "${reason}", message: undefined } 是合法的 error 事件：message 是 undefined 就是没有 message，和 eventLine() 一样看 message === undefined，不看 "message" in value（error 与 aborted 都一样）`,
    );
    assert.equal(
      problemOf({ type: "error", reason, message: "" }),
      undefined,
      `{ type: "error", reason: "${reason}", message: "" } 是合法的 error 事件：空字符串也是 message，有就必须是字符串，空的也是字符串（只看 typeof message === "string"，不另外拒绝 ""；error 与 aborted 都一样）`,
    );
  }
  for (const empty of [
    { type: "text_delta", delta: "" },
    { type: "toolcall_delta", delta: "" },
    { type: "text_delta", delta: "  缩进\n" },
    { type: "toolcall_delta", delta: ' "a": 1 ' },
  ]) {
    assert.equal(
      problemOf(empty),
      undefined,
      `delta 只要是字符串就合法，空字符串、前后有空白的也是：${JSON.stringify(empty)} 不拒绝（协议只要求 string delta）`,
    );
  }
});

test("边界：形状不对的值被拒绝，原因写明缺的是什么", () => {
  const exactly = "原因逐字照指南的表写（不加前缀、后缀或标点）";
  const typeAsIs = "type 逐字比较：不 trim、不改大小写，用 switch 比较，不用对象查表（继承来的键名也是未知的 type）";
  const refused: [unknown, string, string?][] = [
    [null, "expected an object"],
    [
      42,
      "expected an object",
      "不是普通对象的值（数字、布尔、undefined 也是）都是 expected an object：先用 isRecord() 证明，不只挑出 null、数组与字符串",
    ],
    [
      true,
      "expected an object",
      "不是普通对象的值（数字、布尔、undefined 也是）都是 expected an object：先用 isRecord() 证明，不只挑出 null、数组与字符串",
    ],
    [
      undefined,
      "expected an object",
      "不是普通对象的值（数字、布尔、undefined 也是）都是 expected an object：先用 isRecord() 证明，不只挑出 null、数组与字符串",
    ],
    [["start"], "expected an object"],
    [
      [{ type: "start" }],
      "expected an object",
      "数组不是普通对象：装着一个合法事件的数组也是 expected an object（不拆开数组去检查里面的元素）",
    ],
    ["start", "expected an object"],
    [{ type: "ping" }, 'unknown event type "ping"'],
    [{ type: "START" }, 'unknown event type "START"', typeAsIs],
    [{ type: " start" }, 'unknown event type " start"', typeAsIs],
    [{ type: "toString" }, 'unknown event type "toString"', typeAsIs],
    [{ type: "constructor" }, 'unknown event type "constructor"', typeAsIs],
    [{ type: "__proto__" }, 'unknown event type "__proto__"', typeAsIs],
    [{}, "unknown event type undefined", "原因里的 type 是 JSON.stringify(value.type)：没有 type 时是 undefined"],
    [{ type: 5 }, "unknown event type 5", "原因里的 type 是 JSON.stringify(value.type)：数字不加引号"],
    ...[
      [{ type: "" }, 'unknown event type ""'],
      [{ type: 0 }, "unknown event type 0"],
      [{ type: null }, "unknown event type null"],
    ].map(([value, reason]): [unknown, string, string] => [
      value,
      String(reason),
      "空串、0、null 也是一个 type：原因写出 JSON.stringify(value.type)，不是“没有 type”（不看真假）",
    ]),
    [
      { type: ["start"] },
      'unknown event type ["start"]',
      'type 逐字比较：数组 ["start"] 不是 "start"（不先 String() 再比较），原因里是 JSON.stringify(value.type)',
    ],
    [
      { type: 'a"b' },
      'unknown event type "a\\"b"',
      "原因里的 type 是 JSON.stringify(value.type)：引号被转义，不是自己加引号",
    ],
    [
      { type: "a\\b\n" },
      'unknown event type "a\\\\b\\n"',
      "原因里的 type 是 JSON.stringify(value.type)：反斜杠与换行也被转义（\\\\、\\n），不是自己加引号、只转义引号",
    ],
    [{ type: "text_delta" }, '"text_delta" needs a string delta'],
    [{ type: "toolcall_delta", delta: 42 }, '"toolcall_delta" needs a string delta'],
    [{ type: "toolcall_end" }, '"toolcall_end" needs a toolCall object'],
    [{ type: "toolcall_end", toolCall: null }, '"toolcall_end" needs a toolCall object'],
    [{ type: "toolcall_end", toolCall: "call-1" }, '"toolcall_end" needs a toolCall object'],
    [{ type: "toolcall_end", toolCall: { ...readCall, type: "call" } }, '"toolcall_end" needs a toolCall object'],
    [
      { type: "toolcall_end", toolCall: { id: "call-1", name: "read", arguments: {} } },
      '"toolcall_end" needs a toolCall object',
      'toolCall 要带 type: "toolCall"：只写 { id, name, arguments } 是坏调用，value.toolCall 原样交给 toolCallProblem()，不替它补上 tag',
    ],
    [{ type: "toolcall_end", toolCall: { ...readCall, id: 1 } }, "toolCall needs a string id and name"],
    [
      { type: "toolcall_end", toolCall: { ...readCall, type: "call", id: 1 } },
      '"toolcall_end" needs a toolCall object',
      "toolCallProblem() 先查 tag 再查 id：tag 与 id 都不对时报告 tag 那一句（value.toolCall 原样交给它，不先自己查 id）",
    ],
    [{ type: "toolcall_end", toolCall: { ...readCall, arguments: "{}" } }, "toolCall arguments must be an object"],
    [
      { type: "toolcall_end", toolCall: { type: "toolCall", id: "call-1", name: "read" } },
      "toolCall arguments must be an object",
      "没有 arguments 的 toolCall 是坏调用：原样交给 toolCallProblem()，不替它补上 arguments: {}",
    ],
    [{ type: "done", reason: "error" }, '"done" needs reason "stop", "toolUse" or "length"'],
    [
      { type: "done", reason: "STOP" },
      '"done" needs reason "stop", "toolUse" or "length"',
      "reason 原样比较：大小写不同的 STOP 不在列表里",
    ],
    [{ type: "error", reason: "stop" }, '"error" needs reason "error" or "aborted"'],
    ...["length", "toolUse"].map((reason): [unknown, string, string] => [
      { type: "error", reason },
      '"error" needs reason "error" or "aborted"',
      "error 的 reason 只有 error、aborted：done 的 length、toolUse 不在 error 的列表里",
    ]),
    [
      { type: "error", reason: "Aborted" },
      '"error" needs reason "error" or "aborted"',
      "reason 原样比较：大小写不同的 Aborted 不在列表里（done 与 error 都一样）",
    ],
    [
      { type: "error", reason: "error " },
      '"error" needs reason "error" or "aborted"',
      'reason 原样比较：不 trim，末尾多一个空格的 "error " 不在列表里（done 与 error 都一样）',
    ],
    [
      { type: "done", reason: " stop" },
      '"done" needs reason "stop", "toolUse" or "length"',
      'reason 原样比较：不 trim，前面多一个空格的 " stop" 不在列表里（done 与 error 都一样）',
    ],
    [{ type: "error", reason: "error", message: 500 }, '"error" message must be a string'],
    [{ type: "error", reason: "aborted", message: null }, '"error" message must be a string'],
    [{ type: "done", reason: "aborted" }, '"done" needs reason "stop", "toolUse" or "length"'],
    [{ type: "done" }, '"done" needs reason "stop", "toolUse" or "length"'],
    [{ type: "error" }, '"error" needs reason "error" or "aborted"'],
  ];
  for (const [value, reason, rule = exactly] of refused) {
    let problem: string | undefined;
    const before = snapshot(value);
    assert.doesNotThrow(
      () => {
        problem = modelEventProblem(value);
      },
      `modelEventProblem(${JSON.stringify(value)}) 不抛出，而是返回原因：先用 isRecord() 证明是普通对象（null、数组、字符串返回 "expected an object"），再读字段；toolcall_end 的 toolCall 也一样，交给 toolCallProblem() 证明之后才读它的 id`,
    );
    assertUnchanged(value, before);
    const refusal = `${JSON.stringify(value)} 应当被拒绝，原因是 ${reason}：${rule}`;
    assert.notEqual(problem, undefined, `${refusal}；modelEventProblem 却返回了 undefined（没有问题）`);
    assert.equal(problem, reason, refusal);
    assert.equal(isModelEvent(value), false, `isModelEvent 拒绝 ${JSON.stringify(value)}`);
  }
  for (const type of ["text_delta", "toolcall_delta"]) {
    for (const delta of [null, true, {}, ["x"]]) {
      const value = { type, delta };
      assert.equal(
        problemOf(value),
        `"${type}" needs a string delta`,
        `${JSON.stringify(value)} 应当被拒绝，原因是 "${type}" needs a string delta：delta 必须是字符串，null、布尔、对象、数组都不是（检查 typeof delta === "string"，不是挑出几种不对的类型）`,
      );
    }
  }
  for (const message of [true, {}, ["x"]]) {
    const value = { type: "error", reason: "error", message };
    assert.equal(
      modelEventProblem(value),
      '"error" message must be a string',
      `${JSON.stringify(value)} 应当被拒绝，原因是 "error" message must be a string：message 可以没有，有就必须是字符串，不只是数字与 null，布尔、对象、数组也都不是字符串（检查 typeof message === "string"，不是挑出几种不对的类型）`,
    );
  }
  const reasonLists = [
    { type: "done", listed: "stop", sentence: '"done" needs reason "stop", "toolUse" or "length"' },
    { type: "error", listed: "error", sentence: '"error" needs reason "error" or "aborted"' },
  ];
  for (const { type, listed, sentence } of reasonLists) {
    for (const reason of [[listed], "toString", "constructor"]) {
      const value = { type, reason };
      assert.equal(
        modelEventProblem(value),
        sentence,
        `${JSON.stringify(value)} 应当被拒绝，原因是 ${sentence}：reason 必须是列表里的某一个字符串，[${JSON.stringify(listed)}] 不是 ${JSON.stringify(listed)}，"toString"、"constructor" 这种普通对象继承来的键名也不在列表里（用列表的 includes 比较，不用 in 查对象的键）`,
      );
    }
  }
  assert.equal(
    modelEventProblem({ type: "error", reason: "stop", message: 500 }),
    '"error" needs reason "error" or "aborted"',
    "一个值不止一处不对时只报告先检查的那一处：error 先查 reason，再查 message，reason 与 message 都不对时报告 reason 那一句",
  );
});
