// A tree holds only its checkpoint's packages: what its package.json and tsconfig.json files say
// about packages outside the tree is dropped, and a file that needs nothing dropped is kept as is.
import assert from "node:assert/strict";
import { test } from "node:test";
import { trimPackageFiles, workspaceNames } from "../lib/trees/package-files.js";

const json = (value: object) => `${JSON.stringify(value, null, 2)}\n`;

test("树里的 package.json 去掉对树中没有的 workspace 包的依赖与调用仓库脚本的 script，tsconfig 去掉指向树外的 references", () => {
  const files = new Map([
    ["packages/pi-core/package.json", json({ name: "@pi/core", dependencies: { ajv: "^8.20.0" } })],
    [
      "packages/pi-course/package.json",
      json({
        name: "@pi/course",
        scripts: { build: "tsc -b", checkpoint: "tsx ../../scripts/checkpoint.ts" },
        dependencies: { "@pi/core": "0.7.0", "@pi/coding-agent": "0.7.0" },
        devDependencies: { "@pi/ai": "0.7.0", chokidar: "^4.0.3" },
      }),
    ],
    [
      "packages/pi-course/tsconfig.json",
      json({ extends: "../../tsconfig.base.json", references: [{ path: "../pi-core" }, { path: "../pi-ai" }] }),
    ],
    ["packages/pi-core/tsconfig.json", '{ "extends": "../../tsconfig.base.json" }\n'],
  ]);
  const trimmed = trimPackageFiles(files, new Set(["@pi/core", "@pi/course", "@pi/ai", "@pi/coding-agent"]));
  assert.deepEqual(JSON.parse(trimmed.get("packages/pi-course/package.json") ?? ""), {
    name: "@pi/course",
    scripts: { build: "tsc -b" },
    dependencies: { "@pi/core": "0.7.0" },
    devDependencies: { chokidar: "^4.0.3" },
  });
  assert.deepEqual(JSON.parse(trimmed.get("packages/pi-course/tsconfig.json") ?? "").references, [
    { path: "../pi-core" },
  ]);
  assert.equal(
    trimmed.get("packages/pi-core/package.json"),
    files.get("packages/pi-core/package.json"),
    "无需删减的文件逐字保留",
  );
  assert.equal(trimmed.get("packages/pi-core/tsconfig.json"), files.get("packages/pi-core/tsconfig.json"));
});

test("workspace 包名来自根 package.json 的 workspaces", () => {
  const names = workspaceNames();
  for (const name of ["@pi/core", "@pi/course", "@pi/ai", "@pi/coding-agent"]) assert.ok(names.has(name), name);
});
