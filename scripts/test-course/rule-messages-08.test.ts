import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { findCheckpoint } from "../lib/course/manifest.js";
import { targetFiles } from "../lib/course/snapshots.js";
import { type Mutation, mutateSource } from "../lib/mutation/mutants.js";
import { sharedPracticeTree } from "../test/support/shared-practice-tree.js";
import { assertVerifyNamesRule, type RuleMistake } from "../test/support/verify-names-rule.js";
import { verifyUpTo } from "../test/support/verify-up-to.js";

const checkpoint = findCheckpoint("08");
const target = targetFiles(checkpoint);
const tools = "packages/pi-coding-agent/src/tools";

interface Mistake extends RuleMistake {
  mutations: Mutation[];
}

const edit = (file: string, find: string, replace: string): Mutation => ({ file: `${tools}/${file}`, find, replace });

const mistakes: Mistake[] = [
  {
    name: "真实路径和 path.resolve(root) 比较，而不是和工作区的真实路径",
    mutations: [
      edit(
        "workspace-path.ts",
        "  if (!isInside(realRoot, real)) throw outside(requested, root);",
        "  if (!isInside(path.resolve(root), real)) throw outside(requested, root);",
      ),
    ],
    lab: "8.1",
    rule: "真实路径要和工作区的真实路径比较",
  },
  {
    name: "跟随悬空的链接",
    mutations: [
      edit(
        "workspace-path.ts",
        "    if (await isLink(existing)) {",
        "    if (existing === '' && (await isLink(existing))) {",
      ),
    ],
    lab: "8.1",
    rule: "指向不存在目标的链接不被跟随",
  },
  // Probe 114: Node's raw ERR_INVALID_ARG_VALUE, ENAMETOOLONG and ELOOP reached the model.
  {
    name: "含 NUL 字节的路径交给了文件系统",
    mutations: [edit("workspace-path.ts", '  if (relative.includes("\\0")) {', '  if (relative === "\\0") {')],
    lab: "8.1",
    rule: "含 NUL 字节的路径在任何 fs 调用之前拒绝",
  },
  {
    name: "ELOOP 原样抛出",
    mutations: [
      edit(
        "workspace-path.ts",
        '      if (code === "ELOOP" || code === "ENAMETOOLONG") throw',
        '      if (code === "ENAMETOOLONG") throw',
      ),
    ],
    lab: "8.1",
    rule: "ELOOP（symlink 环）",
  },
  {
    name: "还不存在的名字没有问过文件系统",
    mutations: [edit("workspace-path.ts", "      await nameLengthsAllowed(real, missing);\n", "")],
    lab: "8.1",
    rule: "ENAMETOOLONG（名字超过文件系统的上限）",
  },
  {
    name: "提示命令里的路径没有加引号",
    // The template placeholders of read.ts, as text.
    mutations: [edit("read.ts", "$" + "{shellQuoted(requested)} | head", "$" + "{requested} | head")],
    lab: "8.2",
    rule: "路径放在单引号里",
  },
  {
    name: "读取循环不看 signal",
    mutations: [
      edit(
        "read.ts",
        "    size: (await handle.stat()).size,\n    signal,\n",
        "    size: (await handle.stat()).size,\n",
      ),
    ],
    lab: "8.2",
    rule: "read 在循环里响应取消",
  },
  {
    name: "覆盖时没有保留权限位",
    mutations: [edit("write.ts", "      if (existing !== undefined) await keepOwnerAndMode(handle, existing);\n", "")],
    lab: "8.3",
    rule: "覆盖时保留原文件的权限位",
  },
  {
    name: "没有检查目标是否可写",
    mutations: [
      edit("write.ts", "  if (existing !== undefined) await checkReplaceable(dir, name, existing, requested);\n", ""),
    ],
    lab: "8.3",
    rule: "用户自己不能写的只读文件被拒绝",
  },
  {
    name: "edits 一个接一个应用，而不是都对照原文",
    mutations: [
      edit("edit.ts", "  const matches: Match[] = [];\n", "  const matches: Match[] = [];\n  let current = lf.text;\n"),
      edit(
        "edit.ts",
        "    matches.push(locate(lf.text, edit, index));\n",
        "    const match = locate(current, edit, index);\n    matches.push(match);\n    current = current.slice(0, match.start) + match.newText + current.slice(match.end);\n",
      ),
    ],
    lab: "8.4",
    rule: "每个 oldText 对照原文匹配",
  },
  {
    name: "超时计时器没有 clearTimeout",
    mutations: [edit("bash.ts", "    clearTimeout(timer);\n", "")],
    lab: "8.5",
    rule: "bash 返回时不留下计时器",
  },
  {
    name: "shell 一退出就清掉超时计时器与 abort 监听",
    mutations: [
      edit(
        "bash.ts",
        "    exitCode = await shellExit(child);\n",
        '    exitCode = await shellExit(child);\n    clearTimeout(timer);\n    signal?.removeEventListener("abort", onAbort);\n',
      ),
    ],
    lab: "8.5",
    rule: "超时与取消一直有效到调用返回",
  },
  {
    name: "命令继承了模型服务的密钥",
    mutations: [edit("bash.ts", "    env: shellEnvironment(process.env),\n", "")],
    lab: "8.5",
    rule: "bash 的环境里没有模型服务的密钥",
  },
  // Walk 21 (a fresh learner walk): these three passed verify with every lab ✓.
  {
    name: "第一行的 BOM 照样显示",
    mutations: [
      edit(
        "read.ts",
        "  if (offset === 1 && page.shown[0]?.startsWith(BOM)) page.shown[0] = page.shown[0].slice(1);\n",
        "",
      ),
    ],
    lab: "8.2",
    rule: "第一行的 BOM 不显示",
  },
  {
    name: "CRLF 写的 oldText 没有换成 LF",
    mutations: [
      edit("edit.ts", 'const oldText = withLineEndings(edit.oldText, "\\n")', "const oldText = edit.oldText"),
    ],
    lab: "8.4",
    rule: "换行写成 LF",
  },
  {
    name: "bash 返回时没有移除 abort 监听",
    mutations: [edit("bash.ts", '    signal?.removeEventListener("abort", onAbort);\n', "")],
    lab: "8.5",
    rule: "移除 abort 监听",
  },
];

const practiceDir = sharedPracticeTree(checkpoint, "pi-course-rules-08-");

test("第 08 章的常见错误：verify 指向它所在的 Lab，第一条失败写出被违反的规则，这段 Lab 的提示也讲到这条规则", {
  timeout: 900_000,
}, async () => {
  for (const mistake of mistakes) {
    for (const file of checkpoint.teachingFiles) {
      let source = target.get(file) ?? "";
      for (const mutation of mistake.mutations.filter((each) => each.file === file)) {
        source = mutateSource(source, mutation);
      }
      await writeFile(path.join(practiceDir(), ...file.split("/")), source);
    }
    assertVerifyNamesRule(
      await verifyUpTo(practiceDir(), checkpoint, mistake.lab),
      mistake,
      checkpoint,
      practiceDir(),
      {
        everyDiffLine: false,
      },
    );
  }
});
