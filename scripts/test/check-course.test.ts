// `checkpoint --check` catches every mistake an instructor makes in the manifest and the chapter's
// files, all at once, each as one line naming the file and the fix, without building anything.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { readManifest } from "../../packages/pi-course-kit/src/index.js";
import { commandBlockProblems } from "../lib/course/check/command-block-check.js";
import { readmeProblems } from "../lib/course/check/readme-check.js";
import { unnamedAssertions } from "../lib/course/check/rule-messages.js";
import { starterProblems, truncatedMessages } from "../lib/course/check/starter-check.js";
import { testTitles } from "../lib/course/check/test-titles.js";
import { courseProblems } from "../lib/course/check-course.js";
import { type Checkpoint, findCheckpoint, loadManifest, manifestPath, repoRoot } from "../lib/course/manifest.js";
import { parentFile, parentFiles } from "../lib/course/snapshots.js";

const manifest = loadManifest();
const holder = await mkdtemp(path.join(os.tmpdir(), "pi-course-check-"));
after(() => rm(holder, { recursive: true, force: true }));

/** The problems of the course with checkpoint `id` changed by `change`. */
function problemsWith(id: string, change: (checkpoint: Checkpoint) => Checkpoint): string[] {
  const checkpoints = structuredClone(manifest.checkpoints).map((checkpoint) =>
    checkpoint.id === id ? change(checkpoint) : checkpoint,
  );
  return courseProblems({ checkpoints });
}

function only(problems: string[], text: string): string {
  const found = problems.filter((problem) => problem.includes(text));
  assert.equal(found.length, 1, `恰好一行说“${text}”：${problems.join(" | ")}`);
  return found[0] ?? "";
}

test("--check：诊断的 find 不在文件里、replace 已在文件里、find 出现两次，各是一行，写出文件与改法", () => {
  const file = findCheckpoint("06").diagnostic.file;
  const missing = problemsWith("06", (c) => ({ ...c, diagnostic: { ...c.diagnostic, find: "no such line\n" } }));
  assert.match(
    only(missing, "diagnostic.find 不在"),
    new RegExp(`^checkpoint 06：diagnostic.find 不在 ${file} 里：从文件里原样复制`),
  );
  const present = problemsWith("06", (c) => ({ ...c, diagnostic: { ...c.diagnostic, replace: "export" } }));
  assert.match(only(present, "diagnostic.replace 已经出现"), /换一个只在诊断里出现的写法/);
  const twice = problemsWith("06", (c) => ({ ...c, diagnostic: { ...c.diagnostic, find: "return" } }));
  assert.match(only(twice, "出现不止一次"), /多带几行上下文/);
});

test("--check：Lab 的模式不匹配任何测试名、选中的数量与 expected 不符、测试不属于任何 Lab，各是一行", () => {
  const none = problemsWith("07", (c) => ({
    ...c,
    labs: c.labs.map((lab) => (lab.id === "7.2" ? { ...lab, pattern: "没有这种测试" } : lab)),
  }));
  assert.match(only(none, "lab 7.2 的模式"), /不匹配 packages\/pi-course\/test\/07-agent-loop\.test\.ts 里任何测试名/);
  assert.ok(
    none.some((problem) => problem.includes("不属于任何 Lab")),
    "7.2 原来选中的测试不属于任何 Lab",
  );
  const counted = problemsWith("07", (c) => ({
    ...c,
    labs: c.labs.map((lab) => (lab.id === "7.3" ? { ...lab, expected: 5 } : lab)),
  }));
  assert.match(only(counted, "lab 7.3"), /选中 2 项测试，expected 写的是 5：改成 2/);
});

test("--check：starter 没有某段 Lab 的桩、target.adds 列出不存在的文件，各是一行；所有问题一次列出", () => {
  const problems = problemsWith("09", (c) => ({
    ...c,
    labs: c.labs.map((lab) => (lab.id === "9.2" ? { ...lab, title: "改过的标题" } : lab)),
    target: { ...c.target, adds: [...c.target.adds, "packages/pi-course/src/not-written-yet.ts"] },
  }));
  assert.match(only(problems, "not-written-yet"), /不存在：创建它，或改清单里的路径/);
  const stub = problemsWith("09", (c) => ({
    ...c,
    labs: c.labs.map((lab) => (lab.id === "9.2" ? { ...lab, title: "改过的标题" } : lab)),
  }));
  assert.match(only(stub, "Lab 9.2 的桩"), /throw new Error\("Lab 9\.2 改过的标题 尚未实现"\)/);
  const both = problemsWith("08", (c) => ({
    ...c,
    diagnostic: { ...c.diagnostic, find: "no such line" },
    labs: c.labs.map((lab) => (lab.id === "8.1" ? { ...lab, expected: lab.expected + 1 } : lab)),
  }));
  assert.ok(
    both.some((p) => p.includes("diagnostic.find")) && both.some((p) => p.includes("lab 8.1")),
    "两处错误一次列出",
  );
});

test("--check：README 缺少一个检查点的一行时，一行列出缺的每一项", () => {
  const [problem] = readmeProblems(findCheckpoint("07"), "");
  assert.ok(problem, "有一行");
  assert.match(problem, /^README\.md 缺少检查点 07 的 2 项/);
  assert.ok(problem.includes("packages/pi-course/checkpoints/07/README.md"), `缺的一项是指南的链接：${problem}`);
  assert.doesNotMatch(problem, /\n/, "只有一行");
  const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const seven = findCheckpoint("07");
  const row = readme.split("\n").find((line) => line.startsWith("| 07 ")) ?? "";
  const wrongCount = readme.replace(row, row.replace(/\d+ 项(\s*)\|$/, "99 项$1|"));
  assert.match(
    readmeProblems(seven, wrongCount)[0] ?? "",
    /课程表里的一行（编号与聚焦测试数）/,
    "课程表的数目不对也是一处问题",
  );
  assert.deepEqual(readmeProblems(seven, readme), [], "现在的 README 没有问题");
});

test("--check：指南没有命令块、或命令块缺了几项时，一行写出指南与缺的每一项", () => {
  const seven = findCheckpoint("07");
  const six = findCheckpoint("06");
  const [none] = commandBlockProblems(seven, six, "# 第 07 章\n\n## 小结\n");
  assert.match(
    none ?? "",
    /^packages\/pi-course\/checkpoints\/07\/README\.md 没有“## 命令”一节.*缺少 \d+ 项：新建练习目录 npm run practice -w @pi\/course -- 07；/,
  );
  assert.doesNotMatch(none ?? "", /\n/, "只有一行");
  const guide = readFileSync(path.join(repoRoot, seven.guide ?? ""), "utf8");
  const withoutFrom = guide.replace("npm run practice -w @pi/course -- 07 --from practice/06", "");
  const [missing] = commandBlockProblems(seven, six, withoutFrom);
  assert.match(
    missing ?? "",
    /“## 命令”一节缺少 1 项：带着第 06 章的代码（--from） npm run practice -w @pi\/course -- 07 --from practice\/06$/,
  );
  assert.doesNotMatch(missing ?? "", /\n/, "只有一行");
  assert.deepEqual(commandBlockProblems(seven, six, guide), [], "现在的指南没有问题");
  const unheaded = guide.replace("\n## 命令", "\n## 本章的命令行");
  assert.deepEqual(
    commandBlockProblems(seven, six, unheaded),
    [],
    "没有“## 命令”标题、命令都在指南里时也通过（读整份指南）",
  );
});

test("清单的 JSON Schema：手写的推导字段、缺少的字段、类型不对的数字，每处一行，写出检查点与 Lab", async () => {
  const file = path.join(holder, "manifest.json");
  await copyFile(
    path.join(path.dirname(manifestPath), "manifest.schema.json"),
    path.join(holder, "manifest.schema.json"),
  );
  const json = structuredClone(manifest) as unknown as { checkpoints: Record<string, unknown>[] };
  const seven = json.checkpoints.find((checkpoint) => checkpoint.id === "07") as Record<string, unknown> & {
    labs: Record<string, unknown>[];
  };
  for (const checkpoint of json.checkpoints) {
    for (const derived of ["firstRed", "build", "focusedRun", "mode"]) delete checkpoint[derived];
  }
  seven.firstRed = "Lab 7.1 …";
  delete (seven.labs[0] as Record<string, unknown>).hint;
  (seven.labs[1] as Record<string, unknown>).expected = "1";
  await writeFile(file, JSON.stringify(json));
  assert.throws(
    () => readManifest(file),
    (error: Error & { problems?: string[] }) => {
      const problems = error.problems ?? [];
      assert.ok(
        problems.includes(`checkpoint 07："firstRed" 由清单推出，不再手写：删掉这个字段`),
        problems.join(" | "),
      );
      assert.ok(problems.includes(`checkpoint 07 lab 7.1：缺少 "hint"`), problems.join(" | "));
      assert.ok(problems.includes(`checkpoint 07 lab 7.2 "expected"：must be integer`), problems.join(" | "));
      return true;
    },
  );
  await writeFile(file, "{ not json");
  assert.throws(() => readManifest(file), /manifest\.json 有 1 处问题：\n {2}不是合法的 JSON/);
});

test("推导字段：firstRed、build、focusedRun、mode 从清单的其他字段得出", () => {
  const seven = findCheckpoint("07");
  assert.equal(seven.firstRed, `Lab 7.1 ${seven.labs[0]?.title} 尚未实现`, "firstRed 是第一段 Lab 的错误");
  assert.equal(seven.build, "npm run build -w @pi/course", "build 构建本章的包");
  assert.equal(seven.focusedRun, "packages/pi-course/dist/test/07-*.test.js", "focusedRun 是聚焦测试编译后的 glob");
  assert.equal(seven.mode, "重建", "mode 总是重建");
});

test("--record-before 之前，清单列出但还没写的新文件不影响读取 parent 的一个文件", () => {
  const nine = findCheckpoint("09");
  const checkpoints = structuredClone(manifest.checkpoints).map((c) =>
    c.id === "09" ? { ...c, target: { ...c.target, adds: [...c.target.adds, "packages/pi-course/src/later.ts"] } } : c,
  );
  const file = "packages/pi-course/src/index.ts";
  assert.equal(parentFile(nine, file, { checkpoints }), parentFiles(nine).get(file), "只读这一个文件的历史");
  assert.throws(
    () => parentFiles(nine, { checkpoints }),
    /packages\/pi-course\/src\/later\.ts 列在课程清单里，但还不存在：先创建它/,
    "整棵树要读全部文件时是一行说明",
  );
});

test("源码扫描：读出测试名（普通字符串与无插值的模板），认出没有说明的断言与模板字符串里的说明", () => {
  const source = [
    'test("登记与定义：新 Registry 为空", async () => {});',
    "test(`未知工具：ghost`, () => {});",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: test source text holding a template literal
    "test(`${name}：动态`, () => {});",
    'assert.equal(a, 1, "steps 计数已完成的请求");',
    "assert.deepEqual(events, [1, 2]);",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: test source text holding a template literal
    "assert.ok(x, `${label}：只有一个 turn_end`);",
    'assert.match(f(a, "b,c"), /x/);',
  ].join("\n");
  assert.deepEqual(testTitles(source), {
    titles: ["登记与定义：新 Registry 为空", "未知工具：ghost"],
    unreadable: [3],
  });
  assert.deepEqual(unnamedAssertions("x.ts", source), ["x.ts:5 assert.deepEqual(…)", "x.ts:7 assert.match(…)"]);
});

test("--check：starter 的 Lab 注释里一句错误文字停在“; …”（改法没写）时，一行写出文件与行号", () => {
  const source = [
    "  // Lab 8.4 ②：每种失败都是一行错误：",
    "  //   - newText 与 oldText 相同：`edits[0] has newText identical to oldText, so the file would not change; …`",
    "  //   - 找不到：`edits[1].oldText was not found; it must match the file exactly.`",
    "  // Lab 8.5 ⑤：`Could not start the shell: …`（原因跟在冒号后面，不是改法）",
  ].join("\n");
  assert.deepEqual(truncatedMessages(source), [2], "只有停在“; …”的那一行");
  assert.deepEqual(
    starterProblems(findCheckpoint("08")).filter((problem) => problem.includes("; …")),
    [],
    "第 08 章的 starter 给出每一句错误文字的全文",
  );
});
