// Tasks on one file: answer from it, change one value in it, create one to a spec.
import { answer, callTool, finalAnswer, policyModel, resultsSinceUser, textOf, verdictOf } from "../policy-model.js";
import type { EvalTask } from "../types.js";

const README = "# pinecone\n\n把 CSV 转成 JSON 的小工具。\n";

/** The chapter 07 round trip: read the README, answer with the project's name from what was read. */
export const readmeAnswer: EvalTask = {
  name: "readme-answer",
  fixture: { "README.md": README },
  prompts: ["请读取 README.md，并告诉我项目名。"],
  model: () =>
    policyModel((messages) => {
      const [result] = resultsSinceUser(messages);
      if (result === undefined) return callTool("read", { path: "README.md" }, "我先读取项目说明。");
      const title = /^# (.+)$/m.exec(textOf(result))?.[1];
      return answer(result.isError || title === undefined ? "我读不到 README.md。" : `项目名是 ${title}。`);
    }),
  declares: ["README.md"],
  judge: ({ messages, files }) =>
    verdictOf({
      "回答里有项目名 pinecone": finalAnswer(messages).includes("pinecone"),
      "README.md 没有变": files["README.md"] === README,
    }),
};

const CONFIG = '{\n  "name": "shop",\n  "port": 8080,\n  "debug": false\n}\n';

/**
 * Change one value. The policy's first edit guesses the text ("port":8080 without the space) and
 * is refused, because edit replaces only exact, unique text; it reads the file and edits the line
 * it saw. A tool that "fixed" the guess would change the wrong thing in a file with two ports.
 */
export const editConfig: EvalTask = {
  name: "edit-config",
  fixture: { "config.json": CONFIG },
  prompts: ["把 config.json 里的 port 改成 8081，别的不要动。"],
  model: () =>
    policyModel((messages) => {
      const results = resultsSinceUser(messages);
      const guess = { path: "config.json", edits: [{ oldText: '"port":8080', newText: '"port":8081' }] };
      if (results.length === 0) return callTool("edit", guess);
      if (results.length === 1) {
        if (!results[0]?.isError) return answer("port 已改成 8081。");
        return callTool("read", { path: "config.json" }, "没有找到这段文字，我先看看文件。");
      }
      if (results.length === 2) {
        const line = textOf(results[1])
          .split("\n")
          .find((row) => row.includes('"port"'));
        if (line === undefined) return answer("config.json 里没有 port。");
        return callTool("edit", {
          path: "config.json",
          edits: [{ oldText: line, newText: line.replace(/\d+/, "8081") }],
        });
      }
      return answer(results[2]?.isError ? "没能改好 config.json。" : "port 已改成 8081。");
    }),
  declares: ["config.json"],
  judge: ({ files }) => {
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(files["config.json"] ?? "");
    } catch {
      parsed = undefined;
    }
    return verdictOf({
      "config.json 仍是 JSON": parsed !== undefined,
      "port 是 8081": parsed?.port === 8081,
      其他键不变: parsed?.name === "shop" && parsed?.debug === false && Object.keys(parsed).length === 3,
    });
  },
};

const SPEC =
  "# package.json 的要求\n\n- name: tiny-tool\n- version: 0.1.0\n- type: module\n- scripts.test: node --test\n";

/** Create a file to a spec: the values come from SPEC.md as read, and the policy reads its file back. */
export const createFromSpec: EvalTask = {
  name: "create-file",
  fixture: { "SPEC.md": SPEC },
  prompts: ["按 SPEC.md 的要求创建 package.json。"],
  model: () =>
    policyModel((messages) => {
      const results = resultsSinceUser(messages);
      if (results.length === 0) return callTool("read", { path: "SPEC.md" });
      if (results.length === 1) {
        const field = (key: string) =>
          new RegExp(`^- ${key.replace(".", "\\.")}: (.+)$`, "m").exec(textOf(results[0]))?.[1];
        const json = {
          name: field("name"),
          version: field("version"),
          type: field("type"),
          scripts: { test: field("scripts.test") },
        };
        return callTool("write", { path: "package.json", content: `${JSON.stringify(json, null, 2)}\n` });
      }
      if (results.length === 2) return callTool("read", { path: "package.json" }, "写好了，读回来核对一遍。");
      return answer("package.json 已按 SPEC.md 创建。");
    }),
  declares: ["package.json", "SPEC.md"],
  judge: ({ files }) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(files["package.json"] ?? "");
    } catch {
      parsed = undefined;
    }
    return verdictOf({
      "package.json 与 SPEC.md 一致":
        JSON.stringify(parsed) ===
        JSON.stringify({ name: "tiny-tool", version: "0.1.0", type: "module", scripts: { test: "node --test" } }),
      "SPEC.md 没有变": files["SPEC.md"] === SPEC,
    });
  },
};
