// tiny-pi --from practice/NN runs on every chapter's code the practice directory has (the rows of
// learner-code.ts: loop 07, tools 08, the REPL's Agent 09 on a pseudo-terminal where there is one,
// session store 10, compaction 11, resources and hooks 12), and only when every package is built from
// its current sources and the focused tests of every chapter it runs pass. The checks of chapters 10,
// 11 and 12 share one tree, written, marked and built once: checkpoint 12's target written by the
// course machinery, each learner function marked so a run shows it was called. A check that breaks a
// chapter to see the refusal puts the file back and rebuilds, so the next check starts from the same
// green tree (tiny-pi's record of passed focused runs then spares it the tests already run). That a
// row absent from a tree is the course's is the --from practice/05 and --loop checks' (their trees
// stop before chapter 09).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { focusedTestCount } from "@pi/course-kit";
import { startChatServer, textReply, toolCallReply } from "../cli-support/chat-server.js";
import { build, insertAfter, manifest, writeTarget } from "../cli-support/practice-tree.js";
import { put, withProject } from "../cli-support/project.js";
import { PROMPT, ptyUnavailable, startOnPty } from "../cli-support/pty.js";
import { cliEnv, isOneLine, repoRoot, runCli, sessionFiles, withWorkspace } from "../cli-support/run-cli.js";
import { HANG_GUARD_MS } from "../hang-guard.js";

const checkpoint = (id: string) => {
  const found = manifest.checkpoints.find((candidate) => candidate.id === id);
  assert.ok(found !== undefined, `课程清单里有第 ${id} 章`);
  return found;
};

/** Each learner function tiny-pi should call, the line it opens with, and what it writes to stderr. */
const MARKS = [
  {
    file: "packages/pi-course/src/agent-loop.ts",
    anchor: "export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentRunResult> {",
    mark: "学习者的 runAgentLoop",
  },
  {
    file: "packages/pi-coding-agent/src/tools/read.ts",
    anchor: "    async execute(args, { signal }) {",
    mark: "学习者的 read",
  },
  {
    file: "packages/pi-course/src/agent.ts",
    anchor: "  async prompt(input: string | UserMessage): Promise<AgentRunResult> {",
    mark: "学习者的 Agent.prompt",
  },
  {
    file: "packages/pi-coding-agent/src/session/jsonl-store.ts",
    anchor: "  static async create(file: string, header: SessionHeader): Promise<JsonlSessionStore> {",
    mark: "学习者的 JsonlSessionStore.create",
  },
  {
    file: "packages/pi-coding-agent/src/session/jsonl-store.ts",
    anchor: "  static async open(file: string, read: EntryReader = checkEntry): Promise<JsonlSessionStore> {",
    mark: "学习者的 JsonlSessionStore.open",
  },
  {
    file: "packages/pi-coding-agent/src/compaction/context.ts",
    anchor: "export function buildContext(path: readonly SessionEntry[], budget: ContextBudget): BuiltContext {",
    mark: "学习者的 buildContext",
  },
  {
    file: "packages/pi-coding-agent/src/compaction/create-entry.ts",
    anchor: "): CompactionEntry {",
    mark: "学习者的 createCompactionEntry",
  },
  {
    file: "packages/pi-coding-agent/src/resources/roots.ts",
    anchor:
      "export function resourceRoots(options: { globalDir?: string; workspace: string; stopAt?: string }): ResourceRoot[] {",
    mark: "学习者的 resourceRoots",
  },
  {
    file: "packages/pi-coding-agent/src/extensions/hooks.ts",
    anchor:
      "export function hookedRegistry(registry: ToolRegistry, hooks: HookSet, options: HookOptions = {}): ToolRegistry {",
    mark: "学习者的 hookedRegistry",
  },
];

/** The checkpoint whose target is the shared tree: the last whose rows these checks cover. */
const TREE = "12";
let root = "";
/** The shared practice tree: written and marked before the checks, built by the first. */
let tree = "";
let built = false;

before(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "tiny-pi-from-")));
  tree = path.join(root, `practice-${TREE}`);
  writeTarget(TREE, tree);
  for (const { file, anchor, mark } of MARKS) {
    await insertAfter(tree, file, anchor, `process.stderr.write(${JSON.stringify(`${mark}\n`)});`);
  }
});

after(() => rm(root, { recursive: true, force: true }));

/**
 * The shared tree, for one check at a time: a check that ran past its hang guard goes on until its
 * body ends (node:test does not stop it), so the next waits instead of meeting a chapter it broke.
 */
let turns: Promise<unknown> = Promise.resolve();
function withTree<T>(use: () => Promise<T>): Promise<T> {
  const turn = turns.then(use);
  turns = turn.catch(() => undefined);
  return turn;
}

/** The shared tree, built (once: a check run on its own builds it too). */
function builtTree(): string {
  if (!built) build(tree, "packages/pi-coding-agent");
  built = true;
  return tree;
}

/**
 * Runs `check` with the tree's `teaching` file changed by `change` and built, then puts the file back
 * and rebuilds, so the tree is green again for the next check.
 */
async function withChanged<T>(
  teaching: string,
  change: (source: string) => string,
  check: () => Promise<T>,
): Promise<T> {
  const file = path.join(builtTree(), teaching);
  const kept = await readFile(file, "utf8");
  await writeFile(file, change(kept));
  try {
    build(tree, "packages/pi-coding-agent");
    return await check();
  } finally {
    await writeFile(file, kept);
    build(tree, "packages/pi-coding-agent");
  }
}

/** Runs `check` with the tree's `teaching` file replaced by `chapter`'s starter (its labs not written) and built. */
async function withStarter<T>(
  chapter: ReturnType<typeof checkpoint>,
  teaching: string,
  check: () => Promise<T>,
): Promise<T> {
  const starter = chapter.starters[teaching];
  assert.ok(starter !== undefined, `${teaching} 有 starter`);
  const starterSource = await readFile(path.join(repoRoot, starter), "utf8");
  return withChanged(teaching, () => starterSource, check);
}

const START_LINE =
  /^provider（05）：.*practice-12 里你的 openAICompatibleModel（没有 --base-url：这一次回答的是内置脚本模型） · loop（07）：.*practice-12 里你的 runAgentLoop · 工具（08）：.*practice-12 里你的 read · 会话（10）：.*practice-12 里你的 JsonlSessionStore · 压缩（11）：.*practice-12 里你的 buildContext · 资源（12）：.*practice-12 里你的 discoverResources · Runtime（13）：课程的 openRuntime$/m;

test(
  "tiny-pi --from 练习目录（第 10 章起）：未构建时一行拒绝、什么也不写；构建后 loop、工具、会话存储都是练习目录里你的（开头一行说出），REPL 用你的 Agent，--resume 也用你的存储；某一章（第 10 章，或它用到的第 07 章）的聚焦测试不通过时一行拒绝，会话文件不变",
  {
    // It builds the shared tree and makes tiny-pi's first full round of focused tests (chapters 05-12),
    // the work the three checks used to split: twice the guard the others have.
    timeout: 2 * HANG_GUARD_MS,
  },
  () =>
    withTree(async () => {
      const session = checkpoint("10");
      await withWorkspace(async (workspace) => {
        assert.equal(built, false, "第一项检查先看到未构建的树");
        const unbuilt = await runCli(["--from", tree], workspace);
        assert.equal(unbuilt.code, 1);
        assert.ok(isOneLine(unbuilt.stderr), unbuilt.stderr);
        assert.match(unbuilt.stderr, /practice-12 还没有构建：请在其中运行 npm run build -w @pi\/coding-agent。$/m);
        assert.equal(unbuilt.stdout, "");
        assert.equal(existsSync(path.join(workspace, ".tiny-pi")), false, "拒绝时什么也不写");

        builtTree();
        const passing = await runCli(["--from", tree], workspace);
        assert.equal(passing.code, 0, passing.stderr);
        assert.ok(passing.stdout.includes("项目名是 tiny-pi。"), passing.stdout);
        assert.match(passing.stderr, START_LINE, "开头一行说出每一部分来自练习目录");
        for (const mark of ["学习者的 runAgentLoop", "学习者的 read", "学习者的 JsonlSessionStore.create"]) {
          assert.ok(passing.stderr.includes(mark), `运行调用了练习目录里的代码：${mark}\n${passing.stderr}`);
        }
        const [file] = await sessionFiles(workspace);
        assert.ok(file !== undefined, "你的存储写下了会话文件");

        // The REPL on a new conversation runs on the learner's Agent, which drives the learner's loop.
        if (ptyUnavailable() === undefined) {
          const server = await startChatServer([textReply(["REPL 里的回答"])]);
          const pty = startOnPty(
            ["--from", tree, "--base-url", server.baseURL, "--model", "m", "--no-session"],
            workspace,
            cliEnv(),
          );
          try {
            const mine = (what: string) => `${tree} 里你的 ${what}`;
            await pty.waitFor(
              `provider（05）：${mine("openAICompatibleModel")} · loop（07）：${mine("runAgentLoop")} · 工具（08）：${mine("read")} · Agent（09）：${mine("Agent")} · 会话（10）：${mine("JsonlSessionStore")} · 压缩（11）：${mine("buildContext")} · 资源（12）：${mine("discoverResources")} · Runtime（13）：课程的 openRuntime · 运行中输入的一行转入这一轮（第 09 章的 Agent）`,
            );
            await pty.waitFor(PROMPT);
            pty.type("项目叫什么？\r");
            await pty.waitFor("学习者的 Agent.prompt");
            await pty.waitFor("REPL 里的回答");
            await pty.waitFor(PROMPT);
            assert.equal(await pty.leave(), 0, pty.screen());
          } finally {
            await pty.stop();
            await server.close();
          }
        }

        const resumed = await runCli(["--from", tree, "--resume", file, "再问一次"], workspace);
        assert.equal(resumed.code, 0, resumed.stderr);
        assert.ok(resumed.stderr.includes("学习者的 JsonlSessionStore.open"), resumed.stderr);
        const saved = await readFile(file);

        /** The run after `teaching` is changed by `change` and rebuilt (the tree is green again afterwards). */
        const refusedWith = (teaching: string, change: (source: string) => string) =>
          withChanged(teaching, change, async () => {
            const refused = await runCli(["--from", tree, "--resume", file, "第三次"], workspace);
            assert.equal(refused.code, 1);
            assert.ok(isOneLine(refused.stderr), refused.stderr);
            assert.equal(refused.stdout, "", "拒绝时不运行任何一轮");
            assert.deepEqual(await readFile(file), saved, "会话文件一个字节也没变");
            return refused.stderr;
          });
        const starter = session.starters["packages/pi-coding-agent/src/session/session-tree.ts"];
        assert.ok(starter !== undefined);
        const starterSource = await readFile(path.join(repoRoot, starter), "utf8");
        const sessionRed = await refusedWith(
          "packages/pi-coding-agent/src/session/session-tree.ts",
          () => starterSource,
        );
        assert.match(
          sessionRed,
          new RegExp(
            `第 10 章的聚焦测试没有全部通过（通过 \\d+/${focusedTestCount(session)}）：先完成 Lab，进度与提示见 npm run verify -w @pi/course -- 10 `,
          ),
        );
        // Chapter 07's own diagnostic (a cut-off call sent to the executor) in the loop that 09's Agent drives.
        const loop = checkpoint("07");
        const loopRed = await refusedWith(loop.diagnostic.file, (source) => {
          assert.ok(source.includes(loop.diagnostic.find), "第 07 章的诊断在这棵树里能用");
          return source.replace(loop.diagnostic.find, loop.diagnostic.replace);
        });
        const passed = focusedTestCount(loop) - loop.diagnostic.failing;
        assert.match(
          loopRed,
          new RegExp(
            `第 07 章的聚焦测试没有全部通过（通过 ${passed}/${focusedTestCount(loop)}）：.*verify -w @pi/course -- 07 `,
          ),
        );
      });
    }),
);

test("tiny-pi --from 指向不是练习目录的地方：一行说明怎样创建练习目录，退出码 1", async () => {
  await withWorkspace(async (workspace) => {
    const empty = await runCli(["--from", ".", "--no-session"], workspace);
    assert.equal(empty.code, 1);
    assert.ok(isOneLine(empty.stderr), empty.stderr);
    assert.match(
      empty.stderr,
      /^\. 里没有 tiny-pi 能运行的练习代码：请给出第 05 章或之后的练习目录（npm run practice -w @pi\/course -- \d+ 创建）。$/m,
    );
    const missing = await runCli(["--from", "nowhere"], workspace);
    assert.match(missing.stderr, /^--from nowhere 不是目录：请给出练习目录，例如 --from practice\/\d+。$/m);
  });
});

test(
  "tiny-pi --from 练习目录（第 11 章起）：每次请求的上下文用练习目录里你的 buildContext，压缩条目由你的 createCompactionEntry 生成（开头一行说出压缩是你的）；第 11 章的聚焦测试不通过时一行拒绝，会话文件不变",
  {
    timeout: HANG_GUARD_MS,
  },
  () =>
    withTree(async () => {
      const compaction = checkpoint("11");
      builtTree();
      await withWorkspace(async (workspace) => {
        // A README of about 400 tokens: two round trips that read it do not fit a 1,000-token window, one does.
        await writeFile(path.join(workspace, "README.md"), `# tiny-pi\n${"A small agent runtime. ".repeat(70)}\n`);
        const first = await runCli(["--from", tree], workspace);
        assert.equal(first.code, 0, first.stderr);
        assert.match(
          first.stderr,
          /· 压缩（11）：.*practice-12 里你的 buildContext · 资源（12）：/m,
          "开头一行说出压缩来自练习目录",
        );
        assert.ok(
          first.stderr.includes("学习者的 buildContext"),
          `请求的上下文由你的 buildContext 构造\n${first.stderr}`,
        );
        const [file] = await sessionFiles(workspace);
        assert.ok(file !== undefined);

        // A window that only the newest interaction fits: the first round trip is summarised.
        const compacted = await runCli(
          ["--from", tree, "--resume", file, "--context-window", "1000", "--reserve", "50", "再问一次"],
          workspace,
        );
        assert.equal(compacted.code, 0, compacted.stderr);
        assert.match(compacted.stderr, /上下文已压缩/, compacted.stderr);
        assert.ok(compacted.stderr.includes("学习者的 createCompactionEntry"), compacted.stderr);
        const entries = (await readFile(file, "utf8"))
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line));
        assert.ok(
          entries.some((entry) => entry.type === "compaction"),
          "你的 createCompactionEntry 生成的条目写进了会话文件",
        );

        const saved = await readFile(file);
        await withStarter(compaction, "packages/pi-coding-agent/src/compaction/context.ts", async () => {
          const refused = await runCli(["--from", tree, "--resume", file, "第三次"], workspace);
          assert.equal(refused.code, 1);
          assert.ok(isOneLine(refused.stderr), refused.stderr);
          assert.match(refused.stderr, /第 11 章的聚焦测试没有全部通过（通过 \d+\/\d+）：先完成 Lab/);
          assert.deepEqual(await readFile(file), saved, "会话文件一个字节也没变");
        });
      });
    }),
);

test(
  "tiny-pi --from 练习目录（第 12 章起）：资源的根与发现、工具钩子都用练习目录里你的代码（开头一行说出资源是你的），权限门经你的 hookedRegistry 拒绝 bash；第 12 章的聚焦测试不通过时一行拒绝",
  {
    timeout: HANG_GUARD_MS,
  },
  () =>
    withTree(async () => {
      const resources = checkpoint("12");
      builtTree();
      await withProject(async ({ workspace, env }) => {
        await put(path.join(workspace, "AGENTS.md"), "APP-RULE\n");
        const server = await startChatServer([
          toolCallReply("call_1", "bash", { command: "touch marker" }),
          textReply(["好"]),
        ]);
        try {
          const run = await runCli(
            ["--from", tree, "--base-url", server.baseURL, "--model", "m", "--tools", "bash", "--no-session", "建文件"],
            workspace,
            env,
          );
          assert.equal(run.code, 0, run.stderr);
          assert.match(
            run.stderr,
            /· 资源（12）：.*practice-12 里你的 discoverResources · Runtime（13）：课程的 openRuntime$/m,
            "开头一行说出资源来自练习目录",
          );
          assert.ok(run.stderr.includes("学习者的 resourceRoots"), run.stderr);
          assert.ok(run.stderr.includes("学习者的 hookedRegistry"), run.stderr);
          assert.ok(
            server.requests[0].messages[0].content.includes("APP-RULE"),
            "你的代码读到的 AGENTS.md 进了系统提示",
          );
          const result = server.requests[1].messages.find(
            (message: { tool_call_id?: string }) => message.tool_call_id === "call_1",
          );
          assert.match(result.content, /denied/, "权限门经你的 hookedRegistry 拒绝");
          assert.equal(existsSync(path.join(workspace, "marker")), false);

          await withStarter(resources, "packages/pi-coding-agent/src/extensions/hooks.ts", async () => {
            const refused = await runCli(["--from", tree, "--no-session", "再来"], workspace, env);
            assert.equal(refused.code, 1);
            assert.ok(isOneLine(refused.stderr), refused.stderr);
            assert.match(refused.stderr, /第 12 章的聚焦测试没有全部通过（通过 \d+\/\d+）：先完成 Lab/);
          });
        } finally {
          await server.close();
        }
      });
    }),
);
