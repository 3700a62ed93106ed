// Tasks on code: fix a failing test (bash runs it, before and after), rename a symbol in three files.
import {
  answer,
  callsOnPath,
  callTool,
  finalAnswer,
  policyModel,
  resultsSinceUser,
  textOf,
  verdictOf,
} from "../policy-model.js";
import type { EvalTask } from "../types.js";

const SUM = "export function sum(a, b) {\n  return a - b;\n}\n";
const SUM_TEST =
  'import assert from "node:assert/strict";\nimport { test } from "node:test";\nimport { sum } from "./sum.js";\n\ntest("sum adds", () => {\n  assert.equal(sum(2, 3), 5);\n});\n';

/** Run the test (it fails), read the code, fix it, run the test again, and only then say it passes. */
export const fixTest: EvalTask = {
  name: "fix-test",
  fixture: { "package.json": '{ "type": "module" }\n', "sum.js": SUM, "sum.test.js": SUM_TEST },
  prompts: ["node --test sum.test.js 失败了，请修好它。"],
  model: () =>
    policyModel((messages) => {
      const results = resultsSinceUser(messages);
      switch (results.length) {
        case 0:
          return callTool("bash", { command: "node --test sum.test.js" }, "先跑一遍测试。");
        case 1:
          return callTool("read", { path: "sum.js" });
        case 2: {
          const wrong = textOf(results[1])
            .split("\n")
            .find((line) => line.includes("a - b"));
          if (wrong === undefined) return answer("sum.js 里没有找到 a - b。");
          return callTool("edit", {
            path: "sum.js",
            edits: [{ oldText: wrong, newText: wrong.replace("a - b", "a + b") }],
          });
        }
        case 3:
          return callTool("bash", { command: "node --test sum.test.js" }, "再跑一遍测试。");
        default:
          return answer(results[3]?.isError ? "测试还是失败。" : "修好了：sum 写成了减法，测试现在通过。");
      }
    }),
  declares: ["sum.js", "sum.test.js"],
  judge: ({ messages, files }) => {
    const runs = callsOnPath(messages).filter(({ call }) => call.name === "bash");
    return verdictOf({
      "sum.js 用加法": files["sum.js"] === SUM.replace("a - b", "a + b"),
      测试文件没有变: files["sum.test.js"] === SUM_TEST,
      修改前后各跑了一次测试: runs.length === 2 && runs[0]?.result?.isError === true,
      最后一次测试通过: runs.at(-1)?.result?.isError === false,
      回答说测试通过: finalAnswer(messages).includes("通过"),
    });
  },
};

const USER = 'export function getUser(id) {\n  return { id, name: "user-" + id };\n}\n';
const API = 'import { getUser } from "./user.js";\n\nexport const load = (id) => getUser(id);\n';
const CLI = 'import { getUser } from "./user.js";\n\nconsole.log(getUser(Number(process.argv[2])));\n';
const RENAMED: Record<string, string> = {
  "src/user.js": USER.replaceAll("getUser", "fetchUser"),
  "src/api.js": API.replaceAll("getUser", "fetchUser"),
  "src/cli.js": CLI.replaceAll("getUser", "fetchUser"),
};

/**
 * Rename across three files. The first edit of api.js names `getUser` alone and is refused (it
 * occurs twice: edit wants unique text); the policy then finds every file with grep, and rewrites
 * each file it read with every occurrence renamed, and greps again to see none is left.
 */
export const renameSymbol: EvalTask = {
  name: "rename-symbol",
  fixture: { "src/user.js": USER, "src/api.js": API, "src/cli.js": CLI },
  prompts: ["把函数 getUser 改名为 fetchUser，用到它的地方都要改。"],
  model: () =>
    policyModel((messages) => {
      const results = resultsSinceUser(messages);
      if (results.length === 0) {
        return callTool("edit", { path: "src/api.js", edits: [{ oldText: "getUser", newText: "fetchUser" }] });
      }
      if (results.length === 1) return callTool("bash", { command: "grep -rl getUser src | sort" });
      const files = textOf(results[1])
        .split("\n")
        .filter((line) => line.endsWith(".js"));
      // After the grep: read a file, then write it renamed, one file after the other.
      const done = results.length - 2;
      const file = files[Math.floor(done / 2)];
      if (file !== undefined) {
        if (done % 2 === 0) return callTool("read", { path: file });
        return callTool("write", {
          path: file,
          content: `${textOf(results.at(-1)).replaceAll("getUser", "fetchUser")}\n`,
        });
      }
      if (done === files.length * 2) return callTool("bash", { command: "grep -rn getUser src || echo 没有了" });
      return answer(
        textOf(results.at(-1)).includes("没有了") ? "三个文件里的 getUser 都改成了 fetchUser。" : "还有没改完的。",
      );
    }),
  declares: Object.keys(RENAMED),
  judge: ({ files }) =>
    verdictOf({
      "三个文件里都没有 getUser": Object.keys(RENAMED).every((file) => !files[file]?.includes("getUser")),
      三个文件都只改了名字: Object.entries(RENAMED).every(([file, content]) => files[file] === content),
    }),
};
