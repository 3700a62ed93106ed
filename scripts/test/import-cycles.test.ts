// No file of packages/ or scripts/ reaches itself through its imports (the same scan as
// `npm run check`'s scripts/check-import-cycles.ts), and the scan sees the imports that make one.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { repoRoot } from "../lib/course/manifest.js";
import { importCycles } from "../lib/imports/import-cycles.js";
import { importGraph, importSpecifiers, sourceFiles } from "../lib/imports/import-graph.js";

/** The cycles among files written into a temp folder, named by file name. */
function cyclesOf(files: Record<string, string>): string[][] {
  const dir = mkdtempSync(path.join(os.tmpdir(), "import-cycles-"));
  try {
    for (const [name, source] of Object.entries(files)) writeFileSync(path.join(dir, name), source);
    return importCycles(importGraph(sourceFiles(dir))).map((cycle) => cycle.map((file) => path.basename(file)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("导入环：packages/ 与 scripts/ 里没有一个文件经自己的导入回到自己（npm run check 的同一项检查）", () => {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/check-import-cycles.ts"], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^no import cycles among \d+ files/);
});

test("导入环：只有类型的导入、export … from 与 import() 都算，写出闭合的那条路径", () => {
  assert.deepEqual(
    cyclesOf({
      "entries.ts": 'import type { Summary } from "./summary.js";\nexport interface Entry { s: Summary }\n',
      "summary.ts": 'export { type Entry } from "./entries.js";\nexport interface Summary { goal: string }\n',
    }),
    [["entries.ts", "summary.ts", "entries.ts"]],
  );
  assert.deepEqual(
    cyclesOf({
      "a.ts": 'import { b } from "./b.js";\nexport const a = b;\n',
      "b.ts": 'export const b = 1;\nexport const lazy = () => import("./c.js");\n',
      "c.ts": 'import { a } from "./a.js";\nexport const c = a;\n',
    }),
    [["a.ts", "b.ts", "c.ts", "a.ts"]],
  );
});

test("导入环：单向的导入、注释里的导入与包的导入都不算环", () => {
  assert.deepEqual(
    cyclesOf({
      "a.ts": 'import { b } from "./b.js";\nimport { x } from "@pi/core";\nexport const a = b + x;\n',
      "b.ts": '// import { a } from "./a.js";\n/* import "./a.js"; */\nexport const b = 1;\n',
    }),
    [],
  );
  assert.deepEqual(importSpecifiers('import "./side.js";\nexport * from "./all.js";'), ["./side.js", "./all.js"]);
});
