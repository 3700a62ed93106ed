import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import {
  assistantMessage,
  executeToolCall,
  ScriptedModel,
  type Tool,
  type ToolCall,
  ToolRegistry,
  text,
} from "@pi/core";
import { runAgentLoop } from "@pi/course";
import { hookedRegistry } from "../src/extensions/hooks.js";
import { loadExtensions } from "../src/extensions/load.js";
import type { HookSet } from "../src/extensions/types.js";
import { buildCatalogue } from "../src/resources/catalogue.js";
import { formatResourceContext } from "../src/resources/context.js";
import { discoverResources } from "../src/resources/discover.js";
import { resourceRoots } from "../src/resources/roots.js";
import { activateSkill, parseSkillFile } from "../src/resources/skills.js";
import { renderTemplate, splitTemplateArgs } from "../src/resources/templates.js";
import type { Diagnostic, Resource, ResourceRoot } from "../src/resources/types.js";
import { createWorkspaceTools } from "../src/workspace-tools.js";
import { extensionText, SECRET, skillText, type Tree, withTree } from "./resources-fixture.js";

/** Each test ends by itself when it hangs (a promise that never settles) and names itself. */
const TEST_TIMEOUT_MS = 10_000;

// Chapter 12: a repository whose AGENTS.md says "never touch generated/", its app (the workspace)
// with a release skill and review templates, a global folder, and extensions from a cloned
// repository that would run code on import. Every folder is real; so are the symlinks.

const rootsOf = (tree: Tree): ResourceRoot[] =>
  resourceRoots({ globalDir: tree.global, workspace: tree.workspace, stopAt: tree.repo });
const RELEASE = skillText("release", "发布新版本时用：打标签、写变更记录", "1. 跑 npm test\n2. 打标签 vX.Y.Z\n");

// ---------------------------------------------------------------------------
// Lab 12.1 · 根与优先级
// ---------------------------------------------------------------------------

test("资源的根：全局在最前，然后从 stopAt 往里的每个上级目录，最后是工作区，都是真实路径", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withTree(async (tree) => {
    const link = path.join(tree.base, "app-link");
    await symlink(tree.workspace, link, "dir");
    const realRule = "工作区与 stopAt 都用 realDir() 换成真实路径：经符号链接给出的工作区也在 stopAt 里面";
    let roots: ResourceRoot[] = [];
    try {
      roots = resourceRoots({ globalDir: tree.global, workspace: link, stopAt: tree.repo });
    } catch (error) {
      if (/^Lab 12\.1 .+ 尚未实现$/.test((error as Error).message)) throw error;
      assert.fail(`${realRule}（实际抛出了：${(error as Error).message}）`);
    }
    assert.deepEqual(
      roots.filter((root) => root.kind === "global"),
      [{ kind: "global", dir: tree.global }],
      '存在的 globalDir 是一个根：{ kind: "global", dir: 它的真实路径 }',
    );
    assert.equal(roots[0]?.kind, "global", "全局目录在最前：它的优先级最低");

    // A home folder that has a .tiny-pi: "~/.tiny-pi" must still not be read as it.
    const home = path.join(tree.base, "home");
    await mkdir(path.join(home, ".tiny-pi"), { recursive: true });
    const saved = { HOME: process.env.HOME, USERPROFILE: process.env.USERPROFILE };
    Object.assign(process.env, { HOME: home, USERPROFILE: home });
    let tilde: ResourceRoot[] = [];
    try {
      tilde = resourceRoots({ globalDir: "~/.tiny-pi", workspace: tree.workspace, stopAt: tree.repo });
    } catch (error) {
      assert.fail(
        `不存在的全局目录不算一个根：先看它存不存在（existsSync），不存在就不加这个根，不报错、也不交给 realDir()；字面的 "~/.tiny-pi" 就是这样一个不存在的相对路径（实际抛出了：${(error as Error).message}）`,
      );
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    assert.deepEqual(
      tilde.filter((root) => root.kind === "global"),
      [],
      '本章的代码不展开 ~：字面的 "~/.tiny-pi" 是一个相对路径（这里不存在），不是家目录下的 .tiny-pi（tiny-pi 传的是完整路径）',
    );
    assert.deepEqual(
      roots.filter((root) => root.kind === "ancestor"),
      [{ kind: "ancestor", dir: tree.repo }],
      "上级目录从工作区的上一级往外走到 stopAt（含）为止",
    );
    assert.deepEqual(
      roots.at(-1),
      { kind: "workspace", dir: tree.workspace },
      "工作区在最后；经符号链接给出的工作区用它的真实路径",
    );
    assert.deepEqual(
      roots,
      [
        { kind: "global", dir: tree.global },
        { kind: "ancestor", dir: tree.repo },
        { kind: "workspace", dir: tree.workspace },
      ],
      "顺序是 全局 → 上级目录（从外往里，到 stopAt 为止）→ 工作区；经符号链接给出的工作区用它的真实路径",
    );

    const globalLink = path.join(tree.base, "global-link");
    await symlink(tree.global, globalLink, "dir");
    assert.deepEqual(
      resourceRoots({ globalDir: globalLink, workspace: tree.workspace, stopAt: tree.repo })[0],
      { kind: "global", dir: tree.global },
      "经符号链接给出的全局目录也用它的真实路径（realDir()），和工作区、stopAt 一样",
    );
    const repoLink = path.join(tree.base, "repo-link");
    await symlink(tree.repo, repoLink, "dir");
    const stopAtRule =
      "经符号链接给出的 stopAt 也用 realDir() 换成真实路径：工作区在它里面，最外层的上级目录记下的是它的真实路径";
    let viaLink: ResourceRoot[] = [];
    try {
      viaLink = resourceRoots({ workspace: tree.workspace, stopAt: repoLink });
    } catch (error) {
      assert.fail(`${stopAtRule}（实际抛出了：${(error as Error).message}）`);
    }
    assert.deepEqual(
      viaLink,
      [
        { kind: "ancestor", dir: tree.repo },
        { kind: "workspace", dir: tree.workspace },
      ],
      stopAtRule,
    );

    const missingRule =
      "不存在的全局目录不算一个根：先看它存不存在（existsSync），不存在就不加这个根，不报错、也不交给 realDir()";
    let toRoot: ResourceRoot[] = [];
    try {
      toRoot = resourceRoots({ globalDir: path.join(tree.base, "missing"), workspace: tree.workspace });
    } catch (error) {
      assert.fail(`${missingRule}（实际抛出了：${(error as Error).message}）`);
    }
    assert.equal(toRoot[0]?.dir, path.parse(tree.base).root, "没有 stopAt 时，最外层的上级目录是文件系统的根");
    assert.deepEqual(
      toRoot.slice(-3).map((root) => `${root.kind} ${root.dir}`),
      [`ancestor ${tree.base}`, `ancestor ${tree.repo}`, `workspace ${tree.workspace}`],
      "上级目录一层一层往里，工作区在最后；不存在的全局目录不算一个根",
    );
    assert.ok(
      toRoot.every((root) => root.kind !== "global"),
      "不存在的全局目录不算一个根",
    );
    assert.throws(
      () => resourceRoots({ workspace: tree.workspace, stopAt: tree.outside }),
      /stopAt .* 不是工作区 .* 或它的上级目录/,
      "stopAt 不在工作区的上级里是一行错误",
    );
    const prefix = path.join(tree.base, "re");
    await mkdir(prefix);
    assert.throws(
      () => resourceRoots({ workspace: tree.workspace, stopAt: prefix }),
      /stopAt .* 不是工作区 .* 或它的上级目录/,
      "stopAt 不是工作区或它的上级（isInside）就一行报错：名字只是前缀相同的兄弟目录（re 之于 repo/app）不是上级，不能按字符串前缀判断",
    );
    const outsideLink = path.join(tree.base, "outside-link");
    await symlink(tree.outside, outsideLink, "dir");
    let notAbove = "";
    try {
      resourceRoots({ workspace: link, stopAt: outsideLink });
    } catch (error) {
      notAbove = (error as Error).message;
    }
    assert.equal(
      notAbove.slice(0, notAbove.indexOf(" 或它的上级目录")),
      `stopAt ${tree.outside} 不是工作区 ${tree.workspace}`,
      "stopAt 不是上级时的错误写出两个真实路径（realDir() 的结果，不是调用者给的路径）：经符号链接给出的工作区与 stopAt 都写成它们的真实路径",
    );
    assert.deepEqual(
      resourceRoots({ workspace: tree.workspace, stopAt: tree.workspace }),
      [{ kind: "workspace", dir: tree.workspace }],
      "stopAt 就是工作区时没有上级目录：只有工作区一个根，不能一路走到文件系统的根",
    );
  });
});

test("资源的根：同类同名时后面的根胜出并记下谁遮住了谁；上下文文件不遮挡，按根的顺序都生效", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withTree(async (tree) => {
    const globalAgents = await tree.put("global/AGENTS.md", "全局：回答用中文\n");
    const repoAgents = await tree.put("repo/AGENTS.md", "仓库：不要碰 generated/\n");
    const appAgents = await tree.put("repo/app/AGENTS.md", "应用：改完跑 npm test\n");
    const appClaude = await tree.put("repo/app/CLAUDE.md", "应用：提交信息写清楚\n");
    const globalReview = await tree.put("global/prompts/review.md", "全局的 review $@");
    const repoReview = await tree.put("repo/prompts/review.md", "仓库的 review $@");
    const appReview = await tree.put("repo/app/prompts/review.md", "应用的 review $@");
    const reviewExtension = await tree.put("repo/app/extensions/review.mjs", "export default () => {};\n");
    const root: ResourceRoot = { kind: "workspace", dir: tree.workspace };
    const named = (kind: Resource["kind"]): Resource => ({
      kind,
      name: "review",
      root,
      path: `${tree.workspace}/${kind}`,
    });
    assert.deepEqual(
      buildCatalogue([named("skill"), named("template")]).resources.map((resource) => resource.kind),
      ["skill", "template"],
      "不同种类的同名资源互不影响：按（种类，名称）比较，名为 review 的技能与模板各留一个",
    );

    const outer: ResourceRoot = { kind: "ancestor", dir: tree.repo };
    const byRoots = buildCatalogue([
      { kind: "context", name: "CLAUDE.md", root: outer, path: `${tree.repo}/CLAUDE.md` },
      { kind: "context", name: "AGENTS.md", root, path: `${tree.workspace}/AGENTS.md` },
      { kind: "template", name: "Review", root: outer, path: `${tree.repo}/prompts/Review.md` },
      { kind: "template", name: "review", root, path: `${tree.workspace}/prompts/review.md` },
    ]);
    assert.deepEqual(
      byRoots.contextFiles.map((file) => file.name),
      ["CLAUDE.md", "AGENTS.md"],
      "上下文文件按给的顺序（根的顺序），不按名字排序：外层的 CLAUDE.md 在里层的 AGENTS.md 前面",
    );
    // Sorted here: the order of the catalogue is the next test's rule.
    assert.deepEqual(
      [byRoots.resources.map((resource) => resource.name).sort(), byRoots.shadowed.length],
      [["Review", "review"], 0],
      "名称逐字比较：Review 与 review 是两个资源，谁也不遮住谁（不改大小写）",
    );
    const inner: ResourceRoot = { kind: "ancestor", dir: tree.workspace };
    const at = (name: string, where: ResourceRoot): Resource => ({
      kind: "template",
      name,
      root: where,
      path: `${where.dir}/prompts/${name}.md`,
    });
    assert.deepEqual(
      buildCatalogue([
        at("zeta", outer),
        at("alpha", outer),
        at("zeta", inner),
        at("alpha", inner),
        at("zeta", root),
        at("alpha", root),
      ]).shadowed.map(({ shadowed }) => `${shadowed.name}@${shadowed.root.dir === outer.dir ? "外层" : "里层"}`),
      ["zeta@外层", "alpha@外层", "zeta@里层", "alpha@里层"],
      "shadowed 按被遮住的先后记：不按名字排序，也不把同名的归到一起（zeta、alpha 交替被遮住，就交替记下）",
    );

    const catalogue = discoverResources(rootsOf(tree));
    assert.deepEqual(
      catalogue.contextFiles.map((file) => file.path),
      [globalAgents, repoAgents, appAgents, appClaude],
      "上下文文件全部生效，按根的顺序（从外往里），同一个根里先 AGENTS.md 再 CLAUDE.md",
    );
    // Sorted here: the order of the catalogue is the next test's rule.
    assert.deepEqual(
      catalogue.resources.map((resource) => `${resource.kind} ${resource.name} ${resource.path}`).sort(),
      [`extension review.mjs ${reviewExtension}`, `template review ${appReview}`],
      "同类同名只留一个：后面的根（工作区）胜出；不同种类的同名资源互不影响",
    );
    assert.deepEqual(
      catalogue.shadowed.filter((entry) => entry?.winner?.kind === "context" || entry?.shadowed?.kind === "context"),
      [],
      "上下文文件不遮挡：shadowed 里没有上下文文件（各根的 AGENTS.md、CLAUDE.md 都生效，谁也没遮住谁）",
    );
    assert.deepEqual(
      catalogue.shadowed.map(({ winner, shadowed }) => [winner.path, shadowed.path]),
      [
        [appReview, globalReview],
        [appReview, repoReview],
      ],
      "每个被遮住的资源都记下最终的胜者",
    );
  });
});

test("资源的根：目录按（种类，名称）稳定排列，与发现的顺序无关", { timeout: TEST_TIMEOUT_MS }, () => {
  const root: ResourceRoot = { kind: "workspace", dir: "/repo/app" };
  const make = (kind: Resource["kind"], name: string): Resource => ({ kind, name, root, path: `/repo/app/${name}` });
  const found = [
    make("template", "release"),
    make("skill", "release"),
    make("extension", "gate.mjs"),
    make("skill", "deploy"),
    make("template", "Review"),
    make("template", "fix"),
  ];
  const listed = (order: Resource[]) => buildCatalogue(order).resources.map((r) => `${r.kind} ${r.name}`);
  const expected = [
    "extension gate.mjs",
    "skill deploy",
    "skill release",
    "template Review",
    "template fix",
    "template release",
  ];
  assert.deepEqual(listed(found), expected, "先按种类、再按名称（逐个码元比较，不看语言环境）排列");
  assert.deepEqual(listed([...found].reverse()), expected, "发现的顺序反过来，目录不变");
  assert.deepEqual(listed([...found.slice(3), ...found.slice(0, 3)]), expected, "发现的顺序轮换，目录不变");
  const given = [{ source: "/repo/app/skills/broken/SKILL.md", message: "缺少 description" }];
  const { diagnostics } = buildCatalogue(found, given);
  assert.ok(
    diagnostics !== given && JSON.stringify(diagnostics) === JSON.stringify(given),
    "返回的 diagnostics 是 [...diagnostics]：内容一样的新数组，不是调用者传进来的那一个",
  );
});

// ---------------------------------------------------------------------------
// Lab 12.2 · 技能按需
// ---------------------------------------------------------------------------

test("技能按需：SKILL.md 的前置元数据给出 name 与 description；不合格式的技能不进目录，留下一行诊断，目录里没有正文", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  assert.deepEqual(
    parseSkillFile(`---\nname: release\ndescription: "发布新版本时用"\nlicense: MIT\n---\n正文\n`, "SKILL.md"),
    { name: "release", description: "发布新版本时用", body: "正文\n" },
    "name 与 description 来自 --- 之间的前置元数据（引号去掉，别的键忽略），正文是其后的全部",
  );
  assert.deepEqual(
    parseSkillFile("---\nname: release\ndescription: x\n---\n上半\nname: other\n---\n下半\n", "SKILL.md"),
    { name: "release", description: "x", body: "上半\nname: other\n---\n下半\n" },
    '前置元数据到第二行 --- 为止（lines.indexOf("---", 1)，不是最后一行 ---）：正文里的 ---（Markdown 的分隔线）和它上面顶格的 name: other 都是正文',
  );
  const fieldsOf = (file: string) => {
    try {
      const { name, description } = parseSkillFile(file, "a/SKILL.md");
      return { name, description };
    } catch (error) {
      return String(error);
    }
  };
  assert.deepEqual(
    fieldsOf("\uFEFF---\nname: release\ndescription: 发布新版本时用\n---\n正文\n"),
    { name: "release", description: "发布新版本时用" },
    "去掉开头的 BOM：带 BOM 保存的 SKILL.md 也以 --- 开头",
  );
  assert.deepEqual(
    fieldsOf("---\r\nname: release\r\ndescription: 发布新版本时用\r\n---\r\n正文\r\n"),
    { name: "release", description: "发布新版本时用" },
    "按 \\r?\\n 分行：Windows 上写的（CRLF）SKILL.md 照样能读",
  );
  const withoutFrontMatter: [string, string][] = [
    ["name: release\n", "没有前置元数据"],
    [
      "# Release notes\nname: release\ndescription: x\n---\n正文\n",
      "第一行要是 ---：前置元数据开头的 --- 不在第一行，就是没有前置元数据",
    ],
    [
      "# Release notes\n---\nname: release\ndescription: x\n---\n正文\n",
      "前置元数据从第一行开始：第一行不是 ---，后面即使有一对 --- 也不是前置元数据（看 lines[0]，不是在整个文件里找第一个 ---）",
    ],
    ...[" ---", "--- "].map((opening): [string, string] => [
      `${opening}\nname: release\ndescription: x\n---\n`,
      `第一行就是 ---，逐字比较：${JSON.stringify(opening)} 不是 ---（不 trim）`,
    ]),
  ];
  for (const [file, rule] of withoutFrontMatter) {
    assert.throws(() => parseSkillFile(file, "a/SKILL.md"), /^Error: a\/SKILL\.md：SKILL\.md 要以 ---/, rule);
  }
  assert.deepEqual(
    fieldsOf("---\nname: release\n\tdescription: 制表符缩进的\n---\n"),
    "Error: a/SKILL.md：缺少 description：写一句这个技能做什么、什么时候用",
    "缩进的行不是字段：制表符缩进也是缩进（只有顶格的 key: value 是字段），所以这里缺少 description",
  );
  assert.deepEqual(
    fieldsOf("---\nname: release\ndescription: 先写的\ndescription: 后写的\n---\n"),
    { name: "release", description: "后写的" },
    "同一个键写了两次，后面的算",
  );
  assert.equal(
    parseSkillFile("---\nname: release\ndescription: x\n---\n\n  正文\n", "SKILL.md").body,
    "\n  正文\n",
    "正文是第二行 --- 之后的全部，原样：开头的空行与缩进也是正文（不 trim）",
  );
  assert.deepEqual(
    fieldsOf("---\nname: release\ndescription: 用法: npm run release -- --tag=next\n---\n"),
    { name: "release", description: "用法: npm run release -- --tag=next" },
    "值是第一个冒号之后的全部（trim 之后）：值里再有冒号也是值的一部分，不按冒号切开",
  );
  assert.deepEqual(
    fieldsOf("---\nname: release\ndescription: 真的描述\nDescription: 大写开头的键\nNAME: other\n---\n"),
    { name: "release", description: "真的描述" },
    "键逐字比较：只认小写的 name 与 description，Description、NAME 是别的键（不管，也不覆盖）",
  );
  assert.deepEqual(
    fieldsOf("---\nname: release\ndescription: 真的描述\ndescription : 冒号前有空格\n---\n"),
    { name: "release", description: "真的描述" },
    "键逐字比较，不 trim：冒号前多一个空格的“description ”不是 description（只有顶格、紧挨冒号的 key: value 是字段）",
  );
  assert.throws(
    () => parseSkillFile("---\nname: release\n---\n", "a/SKILL.md"),
    /a\/SKILL\.md：缺少 description/,
    "缺少 description 是一行错误，点名文件",
  );
  for (const empty of ['description: ""', "description:"]) {
    assert.throws(
      () => parseSkillFile(`---\nname: release\n${empty}\n---\n`, "a/SKILL.md"),
      /a\/SKILL\.md：缺少 description/,
      `description 不能空：${empty} 和没写一样，是一行错误`,
    );
  }
  assert.throws(
    () => parseSkillFile("---\nname: Release Notes\ndescription: x\n---\n", "a/SKILL.md"),
    /name "Release Notes" 要是小写字母、数字与单个连字符/,
    "name 要符合 Agent Skills 的规则",
  );
  assert.throws(
    () => parseSkillFile("---\nname: Release Notes\n---\n", "a/SKILL.md"),
    /name "Release Notes" 要是小写字母、数字与单个连字符/,
    "先查 name，name 合格了才查 description：name 不合规则、又缺少 description 时，这一行错误说的是 name",
  );
  const longest = "a".repeat(64);
  const longestRule = "name 最多 64 个字符：恰好 64 个字符的 name 可以";
  let longestName: string | undefined;
  try {
    longestName = parseSkillFile(`---\nname: ${longest}\ndescription: x\n---\n`, "a/SKILL.md").name;
  } catch (error) {
    assert.fail(`${longestRule}（实际被拒绝：${(error as Error).message}）`);
  }
  assert.equal(longestName, longest, longestRule);
  assert.throws(
    () => parseSkillFile(`---\nname: ${longest}a\ndescription: x\n---\n`, "a/SKILL.md"),
    /要是小写字母、数字与单个连字符（最多 64 个字符）/,
    "name 最多 64 个字符：65 个字符的 name 是一行错误",
  );
  assert.equal(
    parseSkillFile("---\nname: release\ndescription: x\nmetadata:\n  name: other\n---\n", "a/SKILL.md").name,
    "release",
    "只有顶格的 key: value 是字段：缩进的行（metadata 下面的 name）不管",
  );

  await withTree(async (tree) => {
    const release = await tree.put("repo/app/skills/release/SKILL.md", RELEASE);
    const broken = await tree.put("repo/app/skills/broken/SKILL.md", "---\nname: broken\n---\n秘密正文\n");
    const catalogue = discoverResources(rootsOf(tree));
    assert.deepEqual(
      catalogue.resources,
      [
        {
          kind: "skill",
          name: "release",
          description: "发布新版本时用：打标签、写变更记录",
          root: { kind: "workspace", dir: tree.workspace },
          path: release,
        },
      ],
      "技能在目录里只有名称、描述与位置（SKILL.md 的真实路径）",
    );
    assert.deepEqual(
      catalogue.diagnostics.map((diagnostic: Diagnostic) => diagnostic.source),
      [broken],
      "不合格式的技能不进目录，留下一行点名它的诊断",
    );
    const listed = JSON.stringify(catalogue);
    assert.ok(!listed.includes("打标签 vX.Y.Z") && !listed.includes("秘密正文"), "目录里没有任何技能的正文");
  });
});

test("技能按需：激活才第一次读正文，并返回读过的每个文件的真实路径", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withTree(async (tree) => {
    // The skill folder itself comes from a shared folder through a symlink.
    const shared = path.join(tree.base, "shared", "release");
    await tree.put("shared/release/SKILL.md", RELEASE);
    const checklist = await tree.put("shared/release/checklist.md", "- 变更记录写好了\n");
    await tree.put("repo/app/skills/.keep", "");
    await symlink(shared, path.join(tree.workspace, "skills", "release"), "dir");
    const [skill] = discoverResources(rootsOf(tree)).resources;
    assert.ok(skill !== undefined, "发现了 release 技能");
    assert.equal(skill.path, path.join(shared, "SKILL.md"), "技能的位置是 SKILL.md 的真实路径");

    await writeFile(skill.path, skillText("release", "发布新版本时用", "激活时的新正文\n"));
    const activated = await activateSkill(skill, ["checklist.md"]);
    assert.equal(activated.name, "release", "激活得到技能的名称");
    assert.ok(
      !activated.body.includes("description: 发布新版本时用"),
      "激活得到的是正文：第二行 --- 之后的部分，前置元数据（两行 --- 之间）不在里面",
    );
    assert.ok(activated.body.startsWith("激活时的新正文\n"), "正文在激活时才读：发现之后改过的正文就是激活得到的正文");
    assert.ok(activated.body.includes("- 变更记录写好了"), "请求的技能文件一起读进来");
    assert.ok(
      activated.body.endsWith(`\n<file path="${checklist}">\n- 变更记录写好了\n</file>\n`),
      '每个请求的文件包成 <file path="真实路径">…</file> 接在正文后面，内容先 trimEnd()：结尾的换行去掉，</file> 紧跟最后一行',
    );
    assert.deepEqual(
      activated.sources,
      [path.join(shared, "SKILL.md"), checklist],
      "sources 是读过的每个文件的真实路径：先 SKILL.md，再按顺序的其他文件",
    );
    await writeFile(skill.path, skillText("release", "发布新版本时用", "第二次激活时的正文\n"));
    assert.ok(
      (await activateSkill(skill)).body.startsWith("第二次激活时的正文\n"),
      "每次激活都读一次正文：两次激活之间改过的正文，第二次就看得到（不缓存）",
    );
  });
});

test("技能按需：只读技能目录里的文件：..、目录外的绝对路径与指向外面的符号链接都被拒绝", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withTree(async (tree) => {
    await tree.put("repo/app/skills/release/SKILL.md", RELEASE);
    await tree.put("repo/app/skills/release/notes.md", "发布说明\n");
    await symlink(path.join(tree.outside, "secret.txt"), path.join(tree.workspace, "skills/release/leak.md"));
    await symlink(tree.outside, path.join(tree.workspace, "skills/release/more"), "dir");
    await symlink("notes.md", path.join(tree.workspace, "skills/release/alias.md"));
    const [skill] = discoverResources(rootsOf(tree)).resources;
    assert.ok(skill !== undefined, "发现了 release 技能");

    for (const file of ["../../AGENTS.md", path.join(tree.outside, "secret.txt"), "leak.md", "more/secret.txt"]) {
      await assert.rejects(
        activateSkill(skill, [file]),
        (error: Error) =>
          error.message.startsWith(
            `技能 release 只能读它自己目录 ${path.dirname(skill.path)} 里的文件，"${file}" 被拒绝`,
          ) && !error.message.includes(SECRET),
        `${file}：技能目录外的文件被拒绝，一行错误点名它，不含外面文件的内容`,
      );
    }
    const inside = await activateSkill(skill, ["alias.md"]);
    assert.deepEqual(
      inside.sources.at(-1),
      path.join(tree.workspace, "skills/release/notes.md"),
      "指向目录里面的符号链接可以读，记下的是它的真实路径",
    );

    // After discovery, SKILL.md is swapped for a link out of the skill's folder.
    await rm(skill.path);
    await symlink(path.join(tree.outside, "secret.txt"), skill.path);
    await assert.rejects(
      activateSkill(skill),
      (error: Error) => error.message.includes('"SKILL.md" 被拒绝') && !error.message.includes(SECRET),
      "SKILL.md 本身也经 insideSkill()（第 08 章的边界）换成真实路径再读：发现之后换成指向外面的符号链接，激活被拒绝，不读出外面的内容",
    );
  });
});

// ---------------------------------------------------------------------------
// Lab 12.3 · 模板与上下文
// ---------------------------------------------------------------------------

test("模板与上下文：模板渲染成一条 UserMessage：$1…$9 是位置参数，$@ 是全部参数，$$ 是字面的 $", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const template = { name: "fix", text: "修 $1（$2 号），范围：$@；预算 $$5，$3 不存在，$x 与 $0 原样" };
  const message = renderTemplate(template, ["login", "42", "$1"]);
  assert.equal(message.role, "user", "模板渲染成一条 user 消息");
  assert.equal(
    message.content,
    "修 login（42 号），范围：login 42 $1；预算 $5，$1 不存在，$x 与 $0 原样",
    "一遍从左到右替换：第三个参数“$1”原样放进去，不再展开；$$ 是 $，$x 与 $0 不是占位符",
  );
  assert.equal(
    renderTemplate({ name: "fix", text: "第 $10 项与 $23" }, [
      "一",
      "二",
      "三",
      "四",
      "五",
      "六",
      "七",
      "八",
      "九",
      "十",
    ]).content,
    "第 一0 项与 二3",
    "位置参数只有 $1…$9，一位数字：$10 是 $1 后面跟一个字面的 0（不是第 10 个参数），$23 是 $2 后面跟 3",
  );
  assert.equal(
    renderTemplate(template, ["login"]).content,
    "修 login（ 号），范围：login；预算 $5， 不存在，$x 与 $0 原样",
    "缺的位置参数渲染成空串",
  );
  assert.equal(
    renderTemplate({ name: "fix", text: "修 $1（全部：$@）" }, ["$@", "b"]).content,
    "修 $@（全部：$@ b）",
    "一遍扫描：替换进去的参数“$@”不再被当成占位符（不是先替换 $1 再对整个结果替换 $@ 的两遍）",
  );
  assert.equal(
    renderTemplate({ name: "fix", text: "[$@]" }, ["a", "", "b"]).content,
    "[a  b]",
    '$@ 是全部参数用一个空格连起来：空串参数也是一个参数（"" 得到的），不丢，所以 a 与 b 之间是两个空格',
  );
  await withTree(async (tree) => {
    const file = await tree.put("repo/app/prompts/review.md", "请审查 $1，重点：$@\r\n第二行\n");
    const [review] = discoverResources(rootsOf(tree)).resources;
    assert.ok(review?.kind === "template", "发现了 review 模板");
    assert.equal(review.path, file, "模板的位置是它的真实路径");
    assert.equal(
      renderTemplate(review, ["src/a.ts"]).content,
      "请审查 src/a.ts，重点：src/a.ts\r\n第二行\n",
      "模板文件按同一协议渲染：文件的文字原样（不 trim，末尾的换行也留着，Windows 的 \\r\\n 也不改成 \\n）",
    );
  });
});

test("模板与上下文：参数按空白切开，引号把词组在一起；没配对的引号是一行错误", { timeout: TEST_TIMEOUT_MS }, () => {
  assert.deepEqual(
    splitTemplateArgs(`  login  "two words" 'it said "hi"'  42 `),
    ["login", "two words", 'it said "hi"', "42"],
    "空白切开参数，\"…\" 与 '…' 把词组在一起（引号本身去掉）",
  );
  assert.deepEqual(
    splitTemplateArgs(`a "" '' b`),
    ["a", "", "", "b"],
    "引号里的是一个参数（去掉引号）：空的 \"\" 与 '' 也是一个参数（空串），后面的 $N 不错位",
  );
  assert.deepEqual(splitTemplateArgs(""), [], "没有参数就是空列表");
  assert.deepEqual(
    splitTemplateArgs(`"$1 $@" '$$ 5' $x`),
    ["$1 $@", "$$ 5", "$x"],
    "引号里的原样是一个参数：参数里的 $ 不转义、不展开、不加倍（替换只在渲染模板时做一遍）",
  );
  assert.deepEqual(
    splitTemplateArgs(`" a " ' b '`),
    [" a ", " b "],
    "引号里的原样是一个参数：开头与结尾的空格也是参数的一部分（不 trim）",
  );
  assert.deepEqual(
    splitTemplateArgs("login\t42\n  next"),
    ["login", "42", "next"],
    "按空白切开：制表符与换行也是空白（\\S+ 是一个词，不是只按空格切）",
  );
  assert.throws(
    () => splitTemplateArgs(`fix "login`),
    { message: `参数 "login 里的引号没有配对：用成对的 "…" 或 '…' 把带空格的参数包起来` },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the starter's sentence, quoted for the learner
    "没配对的引号是一行错误，原样是 `参数 ${词} 里的引号没有配对：用成对的 \"…\" 或 '…' 把带空格的参数包起来`：点名那个词，并说出怎么改",
  );
  assert.throws(
    () => splitTemplateArgs(`fix 'login`),
    /引号没有配对/,
    "没配对的单引号 ' 也是一行错误：不带引号的词里还有 \" 或 '，都是没配对的引号",
  );
  assert.throws(
    () => splitTemplateArgs(`fix a"b`),
    /引号没有配对/,
    '不带引号的词里任何位置有 " 或 \'（不只是开头：a"b 也是）都是没配对的引号，是一行错误',
  );
});

test("模板与上下文：资源上下文先是按顺序的上下文文件（带路径），再是技能目录，没有正文；它只经由系统提示到达模型", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withTree(async (tree) => {
    await tree.put("repo/AGENTS.md", "仓库：不要碰 generated/\n");
    await tree.put("repo/app/AGENTS.md", "应用：改完跑 npm test\n");
    await tree.put("repo/app/skills/release/SKILL.md", RELEASE);
    const catalogue = discoverResources(rootsOf(tree));
    const files = await Promise.all(
      catalogue.contextFiles.map(async (file) => ({ path: file.path, content: await readFile(file.path, "utf8") })),
    );
    const context = formatResourceContext(files, catalogue.resources);
    assert.ok(
      !formatResourceContext([{ path: "/r/AGENTS.md", content: "规矩" }], []).includes("<available_skills>"),
      "技能目录只在有技能时才写：只有上下文文件、没有技能时，结果里没有 <available_skills> 这一段",
    );
    const repoAt = context.indexOf(path.join(tree.repo, "AGENTS.md"));
    const appAt = context.indexOf(path.join(tree.workspace, "AGENTS.md"));
    const skillAt = context.indexOf('<skill name="release"');
    assert.ok(
      repoAt >= 0 && appAt > repoAt && skillAt > appAt,
      "先上下文文件（按给的顺序：外层在前，不反转、不重排，各带路径），再技能目录",
    );
    assert.equal(
      formatResourceContext([{ path: "/r/AGENTS.md", content: "规矩" }], []),
      '<context_file path="/r/AGENTS.md">\n规矩\n</context_file>',
      "一个上下文文件就是一段：<context_file path=…>、内容、</context_file> 各占一行，段的前后不多换行（段与段之间的空行由连接时加）",
    );
    assert.equal(
      formatResourceContext([{ path: "/r/AGENTS.md", content: "\n  规矩\n\n" }], []),
      '<context_file path="/r/AGENTS.md">\n规矩\n</context_file>',
      "上下文文件的内容先 trim()，再包进 <context_file path=…>",
    );
    const twoFiles: [string, string, string, string, string][] = [
      [
        "/r/AGENTS.md",
        "外层",
        "/r/app/AGENTS.md",
        "里层",
        '段与段之间空一行（"\\n\\n"）：每个 <context_file> 与技能目录各是一段',
      ],
      [
        "/z/home/.tiny-pi/AGENTS.md",
        "全局",
        "/a/repo/AGENTS.md",
        "仓库",
        "上下文文件按给的顺序写（根的顺序，外层在前）：不按路径或名字排序，路径排在后面的全局文件照样在前",
      ],
    ];
    for (const [firstPath, first, secondPath, second, rule] of twoFiles) {
      assert.equal(
        formatResourceContext(
          [
            { path: firstPath, content: first },
            { path: secondPath, content: second },
          ],
          [],
        ),
        `<context_file path="${firstPath}">\n${first}\n</context_file>\n\n<context_file path="${secondPath}">\n${second}\n</context_file>`,
        rule,
      );
    }
    assert.ok(
      context.indexOf("不要碰 generated/") > repoAt && context.includes("发布新版本时用：打标签、写变更记录"),
      "上下文文件的内容与技能的描述都在",
    );
    assert.ok(context.includes(path.join(tree.workspace, "skills/release/SKILL.md")), "技能目录写出每个技能的位置");
    assert.ok(!context.includes("打标签 vX.Y.Z"), "技能目录里没有正文");
    assert.equal(formatResourceContext([], []), "", "没有资源时是空串");

    const root = { kind: "workspace" as const, dir: tree.workspace };
    const skill = (name: string): Resource => ({
      kind: "skill",
      name,
      root,
      path: path.join(tree.workspace, `skills/${name}/SKILL.md`),
      description: `${name} 的描述`,
    });
    const others: Resource[] = [
      { kind: "template", name: "review", root, path: path.join(tree.workspace, "prompts/review.md") },
      { kind: "extension", name: "audit.mjs", root, path: path.join(tree.workspace, "extensions/audit.mjs") },
    ];
    assert.equal(
      formatResourceContext([], others),
      "",
      "技能目录只在有技能时才写：只有模板与扩展（没有 kind 为 skill 的资源）时没有 <available_skills> 这一段，什么都没有就是空串",
    );
    const listed = formatResourceContext([], [skill("a"), ...others, skill("b")]);
    assert.ok(
      !listed.includes("review") && !listed.includes("audit.mjs"),
      "技能目录只列 kind 为 skill 的资源：模板与扩展不写成 <skill>",
    );
    assert.equal(
      listed,
      [
        "<available_skills>",
        "Activate a skill to read its instructions before you follow it.",
        `<skill name="a" location="${skill("a").path}">\na 的描述\n</skill>`,
        `<skill name="b" location="${skill("b").path}">\nb 的描述\n</skill>`,
        "</available_skills>",
      ].join("\n"),
      '技能目录逐行：<available_skills>、说明一行、每个 <skill> 条目，各行之间一个换行（"\\n"），最后 </available_skills>',
    );

    const model = new ScriptedModel([assistantMessage([text("好的")], "stop")]);
    const task = renderTemplate({ name: "fix", text: "修 $1" }, ["login"]);
    await runAgentLoop({
      model,
      context: { systemPrompt: `你是编码助手。\n\n${context}`, messages: [task] },
      tools: new ToolRegistry(),
    });
    const [request] = model.requests;
    assert.ok(request?.systemPrompt?.includes("不要碰 generated/"), "资源上下文在请求的系统提示里");
    assert.deepEqual(request?.messages, [task], "消息里只有模板渲染的那条用户消息：资源上下文不是一条消息");
  });
});

// ---------------------------------------------------------------------------
// Lab 12.4 · 信任门
// ---------------------------------------------------------------------------

const tool = (name: string): Tool => ({
  name,
  description: `the ${name} tool`,
  parameters: { type: "object", properties: {} },
  execute: async () => ({ content: [text(`${name} ran`)] }),
});

test("信任门：信任在 import() 之前决定，不被信任的扩展的顶层代码从不运行", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withTree(async (tree) => {
    const marker = (name: string) => path.join(tree.base, `${name}.imported`);
    await tree.put("repo/app/extensions/cloned.mjs", extensionText(marker("cloned"), "() => {}"));
    await tree.put(
      "repo/app/extensions/gate.mjs",
      extensionText(marker("gate"), "(api) => api.before(() => undefined)"),
    );
    await tree.put("repo/app/extensions/odd.mjs", extensionText(marker("odd"), "() => {}"));
    const files = discoverResources(rootsOf(tree)).resources;
    const markerAtDecision: string[] = [];
    let gateImportedWhenOddAsked = false;
    const askedAbout: string[] = [];
    const hooks: HookSet = { before: [], after: [] };
    const outcome = await loadExtensions(files, {
      trusted: (file) => {
        if (existsSync(marker(file.name.replace(".mjs", "")))) markerAtDecision.push(file.name);
        if (file.name === "odd.mjs") gateImportedWhenOddAsked = existsSync(marker("gate"));
        askedAbout.push(file.name);
        if (file.name === "odd.mjs") throw new Error("信任记录读不出来");
        return file.name === "gate.mjs";
      },
      registry: new ToolRegistry(),
      hooks,
    }).catch((error: unknown) => {
      if (/^Lab 12\.4 .+ 尚未实现$/.test((error as Error).message)) throw error;
      return assert.fail(
        `trusted() 抛错也算不信任：loadExtensions 接住它，跳过这个扩展并留一行诊断，自己不抛出（实际抛出了：${(error as Error).message}）`,
      );
    });
    assert.deepEqual(markerAtDecision, [], "信任的决定在 import() 之前：决定时任何扩展的顶层代码都还没运行");
    assert.deepEqual(
      askedAbout,
      ["cloned.mjs", "gate.mjs", "odd.mjs"],
      "每个文件按顺序只问一次 trusted()：tiny-pi 在终端上问人，问两次就是让人答两次",
    );
    assert.equal(
      gateImportedWhenOddAsked,
      true,
      "一个接一个处理：前一个（gate.mjs）import 并提交之后，才问下一个（odd.mjs）信不信任；不先把每个文件都问一遍",
    );
    assert.equal(existsSync(marker("cloned")), false, "不被信任的扩展从不 import：它的顶层代码没有留下标记文件");
    assert.equal(existsSync(marker("odd")), false, "信任检查出错就当作不信任：也不 import");
    assert.equal(existsSync(marker("gate")), true, "被信任的扩展 import 了");
    assert.deepEqual(outcome.loaded, [path.join(tree.workspace, "extensions/gate.mjs")], "只加载了被信任的扩展");
    assert.deepEqual(
      outcome.skipped.map((file) => path.basename(file)),
      ["cloned.mjs", "odd.mjs"],
      "不被信任的扩展记为跳过",
    );
    assert.deepEqual(
      outcome.skipped,
      [path.join(tree.workspace, "extensions/cloned.mjs"), path.join(tree.workspace, "extensions/odd.mjs")],
      "skipped 记下 file.path（扩展的完整路径，和 loaded 一样），不是 file.name",
    );
    assert.equal(hooks.before.length, 1, "被信任的扩展的钩子登记了");
    assert.equal(
      outcome.diagnostics[0]?.message,
      "扩展 odd.mjs 的信任检查出错，没有加载：信任记录读不出来",
      "信任检查出错留下一行诊断，原样是“扩展 <名字> 的信任检查出错，没有加载：<错误>”",
    );
    assert.equal(
      outcome.diagnostics[0]?.source,
      path.join(tree.workspace, "extensions/odd.mjs"),
      "信任检查出错的诊断，source 是 file.path（扩展的完整路径），不是 file.name",
    );

    // trusted() answers something truthy that is not true: only exactly true is trust.
    const truthy = await loadExtensions(
      files.filter((file) => file.name === "cloned.mjs"),
      {
        trusted: () => "yes" as unknown as boolean,
        registry: new ToolRegistry(),
        hooks: { before: [], after: [] },
      },
    );
    assert.equal(
      existsSync(marker("cloned")),
      false,
      '只有 trusted() 恰好返回 true 才算信任：返回 "yes" 这样的真值也不 import',
    );
    assert.deepEqual(truthy.loaded, [], "只有 trusted() 恰好返回 true 才算信任：真值不算");

    // tiny-pi asks in the terminal: the answer comes later, as a promise.
    const asked = await loadExtensions(
      files.filter((file) => file.name === "gate.mjs"),
      {
        trusted: async () => true,
        registry: new ToolRegistry(),
        hooks: { before: [], after: [] },
      },
    );
    assert.deepEqual(
      asked.loaded,
      [path.join(tree.workspace, "extensions/gate.mjs")],
      "trusted() 可以是异步的（tiny-pi 在终端上问用户）：先 await options.trusted(file)，异步答复的 true 也算信任，扩展照常加载",
    );
  });
});

test("信任门：工厂失败或工具名冲突时什么也不注册，后面的扩展照常加载", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withTree(async (tree) => {
    const register = (name: string, tail: string) =>
      `(api) => { api.registerTool({ name: ${JSON.stringify(name)}, description: "x", parameters: { type: "object" }, execute: async () => ({ content: [] }) }); api.before(() => ({ allow: false, reason: "x" })); api.after(() => {}); ${tail} }`;
    // The broken extension keeps its API object too: after its factory has thrown, the API refuses as well.
    const broken = await tree.put(
      "repo/app/extensions/a-broken.mjs",
      `export let kept;\n${extensionText(path.join(tree.base, "a"), register("deploy", 'kept = api; throw new Error("配置缺失");'))}`,
    );
    // The clash is its second tool: the first one, audit, must not be registered either.
    await tree.put(
      "repo/app/extensions/b-clash.mjs",
      extensionText(
        path.join(tree.base, "b"),
        register(
          "audit",
          'api.registerTool({ name: "read", description: "x", parameters: { type: "object" }, execute: async () => ({ content: [] }) });',
        ),
      ),
    );
    await tree.put(
      "repo/app/extensions/c-twice.mjs",
      extensionText(
        path.join(tree.base, "c"),
        `${register("lint", "")}`.replace(
          "api.after(() => {});",
          `api.registerTool({ name: "lint", description: "y", parameters: {}, execute: async () => ({ content: [] }) });`,
        ),
      ),
    );
    await tree.put("repo/app/extensions/d-none.mjs", extensionText(path.join(tree.base, "d"), '"not a function"'));
    // Its top-level code throws: import() itself rejects, before any factory.
    await tree.put("repo/app/extensions/d-top.mjs", 'throw new Error("顶层出错");\nexport default () => {};\n');
    // The good extension keeps its API object, to try registering after its factory has returned.
    const good = await tree.put(
      "repo/app/extensions/e-good.mjs",
      `export let kept;\n${extensionText(
        path.join(tree.base, "e"),
        register(
          "format",
          'kept = api; api.registerTool({ name: "fmt-check", description: "x", parameters: { type: "object" }, execute: async () => ({ content: [] }) });',
        ),
      )}`,
    );
    // A factory that succeeds and registers nothing (it only sets something up): it is loaded all the same.
    await tree.put("repo/app/extensions/f-quiet.mjs", "export default () => {};\n");
    const registry = new ToolRegistry().register(tool("read"));
    const gate: HookSet["before"][number] = () => undefined;
    const audit: HookSet["after"][number] = () => undefined;
    const hooks: HookSet = { before: [gate], after: [audit] };
    const [beforeList, afterList] = [hooks.before, hooks.after];
    const outcome = await loadExtensions(discoverResources(rootsOf(tree)).resources, {
      trusted: () => true,
      registry,
      hooks,
    }).catch((error: unknown) =>
      assert.fail(
        `一个坏文件从不让 loadExtensions 抛出：import() 也在 try 里（顶层代码抛错的扩展只是一行诊断），stage() 先查工具名（与已有的同名，或这个扩展自己注册了两次），冲突是一行诊断、什么也不注册（实际抛出了：${(error as Error).message}）`,
      ),
    );
    assert.ok(
      outcome.loaded.some((file) => path.basename(file) === "e-good.mjs"),
      "后面的扩展照常加载：一个扩展失败只是一行诊断，接着处理下一个（continue，不是 break），排在最后的 e-good.mjs 照样加载",
    );
    assert.equal(
      registry.get("audit"),
      undefined,
      "工厂成功、并且没有工具与已有的重名，才一次提交：b-clash.mjs 的第二个工具与 read 重名，它先注册的 audit 也不留下（提交之前就查完全部工具名）",
    );
    assert.deepEqual(
      registry
        .definitions()
        .map((definition) => definition.name)
        .filter((name) => name === "format" || name === "fmt-check"),
      ["format", "fmt-check"],
      "提交时 staged 的工具按扩展注册它们的先后逐个 registry.register()：e-good.mjs 先注册 format 再注册 fmt-check，登记的也是这个顺序（不倒序、不排序）",
    );
    assert.deepEqual(
      registry.definitions().map((definition) => `${definition.name}: ${definition.description}`),
      ["read: the read tool", "format: x", "fmt-check: x"],
      "失败的工厂、与已有工具同名或自己重名的扩展什么工具也没注册，原有的 read 没被替换",
    );
    assert.deepEqual(
      [hooks.before.length, hooks.after.length],
      [2, 2],
      "失败的扩展的钩子也没有登记：已有的一个之外，只有成功的那一个",
    );
    assert.ok(
      hooks.before === beforeList && hooks.after === afterList,
      "钩子 push 进传进来的数组：hooks.before / hooks.after 还是原来那两个数组，不换成新数组（拿着数组的人也看得到新钩子）",
    );
    assert.ok(
      hooks.before[0] === gate && hooks.after[0] === audit,
      "扩展的钩子接到 hooks.before / hooks.after 后面（push）：已有的钩子（例如权限门）仍排在最前，不插到前面（不用 unshift）",
    );
    assert.deepEqual(
      outcome.skipped,
      [],
      "skipped 只记不被信任的扩展：信任了、加载却失败的只留一行诊断，不记进 skipped",
    );
    const { kept } = (await import(pathToFileURL(good).href)) as { kept: { registerTool(tool: Tool): void } };
    assert.throws(
      () => kept.registerTool(tool("late")),
      /扩展只能在它的工厂函数运行时注册工具与钩子/,
      "工厂返回之后，它拿到的 API 拒绝再注册",
    );
    assert.equal(registry.get("late"), undefined, "工厂返回之后注册的工具不会出现");
    const thrown = (await import(pathToFileURL(broken).href)) as { kept: { registerTool(tool: Tool): void } };
    assert.throws(
      () => thrown.kept.registerTool(tool("later")),
      /扩展只能在它的工厂函数运行时注册工具与钩子/,
      "无论成败，工厂结束之后（finally）暂存区都关上：工厂抛错之后，它拿到的 API 同样拒绝再注册",
    );
    assert.deepEqual(
      outcome.loaded.map((file) => path.basename(file)),
      ["e-good.mjs", "f-quiet.mjs"],
      "后面的扩展照常加载；工厂成功就记进 loaded，什么也没注册的扩展（f-quiet.mjs）也是加载了",
    );
    assert.deepEqual(
      outcome.diagnostics.map((diagnostic) => path.basename(diagnostic.source)),
      ["a-broken.mjs", "b-clash.mjs", "c-twice.mjs", "d-none.mjs", "d-top.mjs"],
      "每个失败的扩展留下一行点名它的诊断，loadExtensions 本身不抛出",
    );
    assert.match(
      outcome.diagnostics[0]?.message ?? "",
      /扩展 a-broken\.mjs 没有加载，什么也没有注册：配置缺失/,
      "诊断说明工厂失败的原因",
    );
    assert.equal(
      outcome.diagnostics[0]?.source,
      broken,
      "加载失败的诊断，source 同样是 file.path（扩展的完整路径），不是 file.name",
    );
    assert.match(outcome.diagnostics[1]?.message ?? "", /工具名 read 已经有人用了/, "诊断点名冲突的工具名");
    assert.match(
      outcome.diagnostics[3]?.message ?? "",
      /它没有默认导出一个函数 \(api\) => void/,
      "默认导出不是函数时，诊断说出要怎么改：它没有默认导出一个函数 (api) => void：写 export default function (api) { … }",
    );
    assert.match(
      outcome.diagnostics[4]?.message ?? "",
      /扩展 d-top\.mjs 没有加载，什么也没有注册：顶层出错/,
      "顶层代码抛错的扩展（import() 被拒绝）也只是一行诊断：import() 在 stage() 里、在 try 之内",
    );

    // Async factories: one registers, then fails after an await; one registers only after an await.
    // The failing one handles its own rejection too, so a factory that is not awaited shows as a
    // registered tool, not as a stray rejection.
    const asyncTool = (name: string) =>
      `api.registerTool({ name: ${JSON.stringify(name)}, description: "x", parameters: { type: "object" }, execute: async () => ({ content: [] }) });`;
    const asyncBroken = await tree.put(
      "more/f-async-broken.mjs",
      extensionText(
        path.join(tree.base, "f"),
        `(api) => { const done = (async () => { ${asyncTool("half")} await null; throw new Error("配置坏了"); })(); done.catch(() => undefined); return done; }`,
      ),
    );
    const asyncGood = await tree.put(
      "more/g-async-good.mjs",
      extensionText(
        path.join(tree.base, "g"),
        `(api) => { const done = (async () => { await null; ${asyncTool("slow")} })(); done.catch(() => undefined); return done; }`,
      ),
    );
    const asExtension = (file: string): Resource => ({
      kind: "extension",
      name: path.basename(file),
      root: { kind: "workspace", dir: tree.workspace },
      path: file,
    });
    const asyncRegistry = new ToolRegistry();
    const asyncOutcome = await loadExtensions([asyncBroken, asyncGood].map(asExtension), {
      trusted: () => true,
      registry: asyncRegistry,
      hooks: { before: [], after: [] },
    });
    const awaitRule =
      "调用工厂要 await module.default(stagingApi(staged))：异步工厂在 await 之后抛错也是失败（一行诊断，它先注册的 half 也不留下），在 await 之后注册的 slow 照样提交";
    assert.deepEqual(
      [asyncRegistry.get("half")?.name, asyncRegistry.get("slow")?.name],
      [undefined, "slow"],
      awaitRule,
    );
    assert.deepEqual(
      asyncOutcome.diagnostics.map((diagnostic) => path.basename(diagnostic.source)),
      ["f-async-broken.mjs"],
      awaitRule,
    );

    // Two good extensions both register a new tool "dup": the first one gets it.
    const dupFiles = await Promise.all(
      ["h-dup.mjs", "i-dup.mjs"].map((name) =>
        tree.put(`more/${name}`, extensionText(path.join(tree.base, name), `(api) => { ${asyncTool("dup")} }`)),
      ),
    );
    const oneByOneRule =
      "扩展一个接一个加载：前一个提交（或失败）之后才 import 下一个，所以“已有的工具”包括前面的扩展提交的；两个扩展注册同名的新工具 dup，先加载的那个用上它，后一个是一行诊断";
    const dupOutcome = await loadExtensions(dupFiles.map(asExtension), {
      trusted: () => true,
      registry: new ToolRegistry(),
      hooks: { before: [], after: [] },
    }).catch((error: unknown) => assert.fail(`${oneByOneRule}（实际抛出了：${(error as Error).message}）`));
    assert.deepEqual(
      [
        dupOutcome.loaded.map((file) => path.basename(file)),
        dupOutcome.diagnostics.map((d) => path.basename(d.source)),
      ],
      [["h-dup.mjs"], ["i-dup.mjs"]],
      oneByOneRule,
    );
  });
});

// ---------------------------------------------------------------------------
// Lab 12.5 · 工具钩子
// ---------------------------------------------------------------------------

let calls = 0;
const writeCall = (file: string): ToolCall => ({
  type: "toolCall",
  id: `call-${++calls}`,
  name: "write",
  arguments: { path: file, content: "generated\n" },
});
const protectGenerated: HookSet["before"][number] = (call) =>
  String(call.arguments.path).startsWith("generated/")
    ? { allow: false, reason: "AGENTS.md: never touch generated/" }
    : undefined;

test("工具钩子：before 钩子拒绝时，调用得到配对的错误结果，核心工具从不运行", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  await withTree(async (tree) => {
    const registry = new ToolRegistry();
    for (const core of createWorkspaceTools(tree.workspace)) registry.register(core);
    const seen: string[] = [];
    const hooks: HookSet = {
      before: [
        (call) => void seen.push(`first ${call.name} ${String(call.arguments.path)}`),
        protectGenerated,
        (call) => void seen.push(`third ${String(call.arguments.path)}`),
      ],
      after: [],
    };
    const denials: Diagnostic[] = [];
    const hooked = hookedRegistry(registry, hooks, { onDiagnostic: (entry) => denials.push(entry) });
    assert.deepEqual(hooked.definitions(), registry.definitions(), "包上钩子的注册表给模型的工具定义不变");

    const denied = writeCall("generated/api.ts");
    const result = await executeToolCall(denied, hooked, {});
    assert.deepEqual(
      [result.toolCallId, result.toolName, result.isError],
      [denied.id, "write", true],
      "被拒绝的调用得到与它配对的错误结果",
    );
    assert.equal(
      result.content[0]?.text,
      'Call to tool "write" was denied: AGENTS.md: never touch generated/',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the starter's sentence, quoted for the learner
      '错误结果说明被拒绝及理由：拒绝时抛出的就是这一句 `Call to tool "${tool.name}" was denied: ${reason}`（原样，模型与日志按它辨认）',
    );
    assert.equal(existsSync(path.join(tree.workspace, "generated/api.ts")), false, "核心工具从不运行：文件没有写出");
    assert.deepEqual(seen, ["first write generated/api.ts"], "按顺序运行，第一个拒绝就定了：后面的钩子不再问");
    assert.deepEqual(
      denials,
      [],
      "普通的拒绝（{ allow: false, reason }）不是失败：不留诊断，只有 decision.failure 有值（失败即拒绝）时才 report()",
    );

    const allowed = await executeToolCall(writeCall("src/api.ts"), hooked, {});
    assert.equal(allowed.isError, false, "没有钩子拒绝的调用照常运行");
    assert.equal(await readFile(path.join(tree.workspace, "src/api.ts"), "utf8"), "generated\n", "文件写出了");
  });
});

/** A registry with one `bash` tool that answers "ran N" on its N-th run. */
function countingBash(): { registry: ToolRegistry; runs: () => number } {
  let ran = 0;
  const registry = new ToolRegistry().register({
    ...tool("bash"),
    execute: async () => ({ content: [text(`ran ${++ran}`)] }),
  });
  return { registry, runs: () => ran };
}

test("工具钩子：抛错、超时、答非所问或等待中被中止的 before 钩子让调用被拒绝（失败即拒绝），并留下诊断", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { registry, runs } = countingBash();
  const bash: ToolCall = { type: "toolCall", id: "call-bash", name: "bash", arguments: {} };
  const aborted = new AbortController();
  const failing: [string, HookSet["before"][number], RegExp, AbortSignal?][] = [
    [
      "抛错",
      () => {
        throw new Error("权限文件读不出来");
      },
      /第 1 个 before 钩子抛出了错误：权限文件读不出来/,
    ],
    ["超时", () => new Promise(() => {}), /第 1 个 before 钩子在 20 ms 内没有答复/],
    ["答非所问", () => ({ allow: "yes" }) as never, /第 1 个 before 钩子返回了 \{"allow":"yes"\}/],
    [
      "等待中被中止",
      () => {
        queueMicrotask(() => aborted.abort());
        return new Promise(() => {});
      },
      /第 1 个 before 钩子还没有答复，运行就被中止了/,
      aborted.signal,
    ],
  ];
  for (const [what, hook, diagnostic, signal] of failing) {
    const diagnostics: Diagnostic[] = [];
    const hooked = hookedRegistry(
      registry,
      { before: [hook], after: [] },
      {
        // The abort case waits with no limit: only the abort can end it.
        beforeTimeoutMs: signal === undefined ? 20 : Number.POSITIVE_INFINITY,
        onDiagnostic: (entry) => diagnostics.push(entry),
      },
    );
    const result = await executeToolCall(bash, hooked, signal === undefined ? {} : { signal });
    assert.equal(result.isError, true, `${what}：调用被拒绝`);
    assert.equal(
      result.content[0]?.text,
      'Call to tool "bash" was denied: a permission check failed, so the call was not run',
      `${what}：错误结果说明被拒绝，理由是固定的 a permission check failed, so the call was not run（钩子怎么失败的只写进诊断，不给模型）`,
    );
    assert.equal(diagnostics.length, 1, `${what}：留下一行诊断`);
    assert.match(diagnostics[0]?.message ?? "", diagnostic, `${what}：诊断说明钩子怎么失败的`);
    assert.match(
      diagnostics[0]?.message ?? "",
      /^第 1 个 before 钩子.+，bash 的调用被拒绝（失败即拒绝）$/,
      `${what}：诊断是一整句“第 N 个 before 钩子…，<工具名> 的调用被拒绝（失败即拒绝）”，点名工具`,
    );
    assert.equal(diagnostics[0]?.source, "bash", `${what}：诊断点名工具`);
  }
  assert.equal(runs(), 0, "失败即拒绝：核心工具一次也没有运行");
});

test("工具钩子：限时只管这一次决定：Infinity 表示不限时，已经中止的信号立刻算，钩子拿到 { signal }，结束后不留计时器与 abort 监听", {
  timeout: TEST_TIMEOUT_MS,
}, async () => {
  const { registry, runs } = countingBash();
  const args = {};
  const later = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  // One before hook that allows, 30 ms after it is asked.
  const allowsIn30Ms: HookSet = {
    before: [
      async () => {
        await later(30);
        return { allow: true };
      },
    ],
    after: [],
  };

  // tiny-pi's y/n prompt: the person answers whenever they like, the limit is Infinity.
  const seen: unknown[] = [];
  const hookContexts: object[] = [];
  const patient = hookedRegistry(
    registry,
    {
      before: [
        async (_call, context) => {
          seen.push(context.signal);
          hookContexts.push(context);
          await later(30);
          return { allow: true };
        },
      ],
      after: [],
    },
    { beforeTimeoutMs: Number.POSITIVE_INFINITY },
  ).get("bash");
  const running = new AbortController();
  const answered = await Promise.resolve(
    patient?.execute(args, { signal: running.signal, reportProgress: () => undefined }),
  ).catch((error: Error) => ({
    content: [text(error.message)],
  }));
  assert.equal(
    answered?.content[0]?.text,
    "ran 1",
    "beforeTimeoutMs 为 Infinity 表示不限时：晚到的允许照样算（setTimeout 不接受 Infinity，它会在 1 ms 后就触发，所以不限时就不设计时器）",
  );
  assert.deepEqual(seen, [running.signal], "钩子拿到 { signal: context.signal }：就是这次调用的中止信号");
  assert.deepEqual(
    hookContexts.map((context) => Object.keys(context)),
    [["signal"]],
    "钩子只拿到 { signal: context.signal }：不是这次调用的整个 context（reportProgress 是核心工具的，不给钩子）",
  );
  assert.equal(getEventListeners(running.signal, "abort").length, 0, "决定之后移除 abort 监听：信号上不留下它");

  // A limit of 0 ms is a limit: the answer 30 ms later comes after the 0 ms timer, which was set first.
  const zero = hookedRegistry(registry, allowsIn30Ms, { beforeTimeoutMs: 0 }).get("bash");
  await assert.rejects(
    Promise.resolve(zero?.execute(args, {})),
    /was denied/,
    "beforeTimeoutMs: 0 是 0 ms 的限时，不是没给：限时是 options.beforeTimeoutMs ?? DEFAULT_BEFORE_TIMEOUT_MS，不用 ||（|| 会把 0 换成 30 秒）",
  );

  const quick = hookedRegistry(registry, { before: [() => undefined], after: [] }, { beforeTimeoutMs: 60_000 }).get(
    "bash",
  );
  // The timers set during the decision, and those cleared; whatever is left is cleared at the end, so a leaked one cannot hold the test.
  const set: ReturnType<typeof setTimeout>[] = [];
  const cleared = new Set<unknown>();
  const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis;
  globalThis.setTimeout = ((...timer: Parameters<typeof setTimeout>) => {
    const handle = realSetTimeout(...timer);
    set.push(handle);
    return handle;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((handle?: Parameters<typeof clearTimeout>[0]) => {
    cleared.add(handle);
    realClearTimeout(handle);
  }) as typeof clearTimeout;
  try {
    await quick?.execute(args, {});
    assert.deepEqual(
      set.filter((handle) => !cleared.has(handle)).length,
      0,
      "决定之后清掉计时器（clearTimeout）：一个悬着的计时器会让进程不退出",
    );
  } finally {
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
    for (const handle of set) realClearTimeout(handle);
  }

  const diagnostics: Diagnostic[] = [];
  const gone = new AbortController();
  gone.abort();
  const late = hookedRegistry(registry, allowsIn30Ms, {
    beforeTimeoutMs: Number.POSITIVE_INFINITY,
    onDiagnostic: (entry) => diagnostics.push(entry),
  }).get("bash");
  await assert.rejects(
    Promise.resolve(late?.execute(args, { signal: gone.signal })),
    /was denied/,
    "已经中止的信号立刻算：不等钩子答复，调用被拒绝",
  );
  assert.match(diagnostics[0]?.message ?? "", /还没有答复，运行就被中止了/, "已经中止的信号立刻算：留下一行诊断");
  assert.equal(runs(), 2, "已经中止的信号：核心工具不运行（只有前两次允许的调用运行了）");
});

test("工具钩子：after 钩子对每个核心结果恰好运行一次，它出错也不替换结果", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withTree(async (tree) => {
    const registry = new ToolRegistry();
    for (const core of createWorkspaceTools(tree.workspace)) registry.register(core);
    const observed: string[] = [];
    const diagnostics: Diagnostic[] = [];
    const hooked = hookedRegistry(
      registry,
      {
        before: [protectGenerated],
        after: [
          (call, output) => void observed.push(`${call.name} ${output.content[0]?.text.slice(0, 5)}`),
          () => {
            throw new Error("审计日志写不进去");
          },
          () => void observed.push("third ran"),
          () => {
            // Handled here too, so a hook that is not awaited shows as a missing diagnostic, not a stray rejection.
            const rejected = Promise.reject(new Error("远端审计服务拒绝了"));
            rejected.catch(() => undefined);
            return rejected;
          },
        ],
      },
      { onDiagnostic: (entry) => diagnostics.push(entry) },
    );
    const plain = await executeToolCall(writeCall("src/a.ts"), registry, {});
    const result = await executeToolCall(writeCall("src/b.ts"), hooked, {});
    assert.equal(result.isError, false, "after 钩子出错不把结果变成错误");
    assert.deepEqual(
      result.content[0]?.text.replace("src/b.ts", "src/a.ts"),
      plain.content[0]?.text,
      "结果就是核心工具的结果，没有被替换",
    );
    assert.equal(
      observed[0],
      `write ${result.content[0]?.text.slice(0, 5)}`,
      "after 钩子按登记的顺序运行：第 1 个先运行，看到核心结果",
    );
    assert.deepEqual(
      observed,
      [`write ${result.content[0]?.text.slice(0, 5)}`, "third ran"],
      "after 钩子恰好运行一次，看到核心结果；第 2 个钩子出错，第 3 个照样运行（每个钩子各自 try/catch，不是一个 try 包住整个循环）",
    );
    assert.equal(
      diagnostics[0]?.message,
      "第 2 个 after 钩子出错（结果不变）：审计日志写不进去",
      "它的失败只是一行诊断：“第 N 个 after 钩子出错（结果不变）：…”，N 是 index + 1，从 1 数起：第二个钩子是“第 2 个”；… 是 errorMessageOf(error)，不带 Error: 前缀",
    );
    assert.match(
      diagnostics[1]?.message ?? "",
      /第 4 个 after 钩子出错（结果不变）：远端审计服务拒绝了/,
      "after 钩子要 await：异步钩子的拒绝也只是一行诊断，在调用返回之前留下（不 await 就成了没人接的 rejection）",
    );

    await executeToolCall(writeCall("generated/x.ts"), hooked, {});
    assert.equal(observed.length, 2, "被拒绝的调用没有核心结果，after 钩子不运行");

    // A core tool that throws has no result either.
    const failing = new ToolRegistry().register({
      ...tool("bash"),
      execute: async () => {
        throw new Error("磁盘满了");
      },
    });
    const outputs: unknown[] = [];
    const failingHooked = hookedRegistry(failing, {
      before: [],
      after: [(_call, output) => void outputs.push(output)],
    });
    const thrown = await executeToolCall(
      { type: "toolCall", id: "call-failing", name: "bash", arguments: {} },
      failingHooked,
      {},
    );
    assert.deepEqual(
      outputs,
      [],
      "核心工具抛错时没有核心结果，after 钩子不运行（不放在 finally 里拿着 undefined 调用它）",
    );
    assert.match(
      thrown.content[0]?.text ?? "",
      /磁盘满了/,
      "核心工具的错误照样抛出去：executeToolCall 把它配成错误结果",
    );
    const coreError = new Error("磁盘满了");
    const rejectsWith = hookedRegistry(
      new ToolRegistry().register({
        ...tool("bash"),
        execute: async () => {
          throw coreError;
        },
      }),
      { before: [], after: [] },
    );
    await assert.rejects(
      rejectsWith.get("bash")?.execute({}, {}) ?? Promise.resolve(),
      (error: unknown) => error === coreError,
      "核心工具的错误照样抛出去：包装后的 execute 拒绝的就是核心工具抛出的那个错误对象本身，不包成新的 Error、不改它的文字",
    );

    // The core output itself, not a copy: details and any field the loop reads later stay the core tool's.
    const coreOutput = { content: [text("ran")], details: { exitCode: 0 } };
    const seenByAfter: unknown[] = [];
    const coreSaw: unknown[] = [];
    const passing = hookedRegistry(
      new ToolRegistry().register({
        ...tool("bash"),
        execute: async (_args, context) => {
          coreSaw.push(context);
          return coreOutput;
        },
      }),
      { before: [], after: [(_call, output) => void seenByAfter.push(output)] },
    );
    const call = new AbortController();
    const reportProgress = () => undefined;
    const given = { signal: call.signal, reportProgress };
    const returned = await passing.get("bash")?.execute({}, given);
    assert.ok(
      coreSaw.length === 1 && coreSaw[0] === given,
      "核心工具拿到这次调用的 context 本身：tool.execute(args, context)，同一个对象，带着中止信号与 reportProgress（不换成 {}、{ ...context } 或只带 signal 的新对象，否则 Esc 停不下正在跑的工具，进度也丢了）",
    );
    assert.ok(
      returned === coreOutput && seenByAfter[0] === coreOutput,
      "返回 output 本身：after 钩子拿到的与调用返回的都是核心工具返回的那个对象（不是 { ...output } 这样的副本）",
    );
  });
});
