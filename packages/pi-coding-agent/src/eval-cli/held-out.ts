// The held-out part of the suite. It lives here, in src/eval-cli/, which no checkpoint tree
// holds: a learner's practice directory never contains it, so nobody tunes an agent to it.
// `npm run eval` runs it after the practice part, on the same agent, and reports it apart.
import {
  answer,
  callsOnPath,
  callTool,
  type EvalTask,
  finalAnswer,
  policyModel,
  resultsSinceUser,
  resumeTask,
  textOf,
  verdictOf,
} from "../eval/index.js";

const PORT_DOC = "# 部署\n\n服务监听端口 7421，健康检查在 /healthz。\n";

/** The first guess at the path is wrong; the policy looks for the file before it answers. */
const answerNested: EvalTask = {
  name: "answer-nested",
  fixture: { "docs/ops/deploy.md": PORT_DOC, "docs/index.md": "# 文档\n" },
  prompts: ["docs/ 里写了服务的端口号，是多少？"],
  model: () =>
    policyModel((messages) => {
      const results = resultsSinceUser(messages);
      if (results.length === 0) return callTool("read", { path: "docs/port.md" });
      if (results.length === 1) return callTool("bash", { command: "grep -rl 端口 docs" }, "没有这个文件，我找一找。");
      if (results.length === 2) {
        const file = textOf(results[1])
          .split("\n")
          .find((line) => line.endsWith(".md"));
        return file === undefined ? answer("docs/ 里没有写端口。") : callTool("read", { path: file });
      }
      const port = /端口 (\d+)/.exec(textOf(results[2]))?.[1];
      return answer(port === undefined ? "没有找到端口。" : `端口是 ${port}。`);
    }),
  declares: ["docs/ops/deploy.md"],
  judge: ({ messages, files }) =>
    verdictOf({
      "回答里有端口 7421": finalAnswer(messages).includes("7421"),
      "读过 deploy.md": callsOnPath(messages).some(
        ({ call, result }) => call.name === "read" && result?.isError === false,
      ),
      文档没有变: files["docs/ops/deploy.md"] === PORT_DOC,
    }),
};

const ENV = "HOST=0.0.0.0\nPORT=3000\nLOG_LEVEL=info\n";

/** Two values in one edit call: both replacements or neither. */
const editTwoValues: EvalTask = {
  name: "edit-two-values",
  fixture: { ".env": ENV },
  prompts: ["把 .env 里的 PORT 改成 3001，LOG_LEVEL 改成 debug。"],
  model: () =>
    policyModel((messages) => {
      const results = resultsSinceUser(messages);
      if (results.length === 0) return callTool("read", { path: ".env" });
      if (results.length === 1) {
        const line = (key: string) =>
          textOf(results[0])
            .split("\n")
            .find((row) => row.startsWith(`${key}=`)) ?? key;
        return callTool("edit", {
          path: ".env",
          edits: [
            { oldText: line("PORT"), newText: "PORT=3001" },
            { oldText: line("LOG_LEVEL"), newText: "LOG_LEVEL=debug" },
          ],
        });
      }
      return answer(results[1]?.isError ? "没改成。" : "两个值都改好了。");
    }),
  declares: [".env"],
  judge: ({ files }) =>
    verdictOf({ ".env 的两个值都改了，别的不变": files[".env"] === "HOST=0.0.0.0\nPORT=3001\nLOG_LEVEL=debug\n" }),
};

export const HELD_OUT_TASKS: readonly EvalTask[] = [
  answerNested,
  editTwoValues,
  // The crash came before the call's result was written: the resumed path must pair the call.
  resumeTask("resume-interrupted", false),
];
