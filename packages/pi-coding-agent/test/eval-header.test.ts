// npm run eval's header names whose code runs: the course's, or the practice tree's, chapter by
// chapter when the tree's record (written by npm run practice) says some chapters in it are the
// course's reference (a tree started mid-course without --from).
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { PRACTICE_RECORD } from "../src/cli/practice-record.js";
import { whoseSuite } from "../src/eval-cli/suite-code.js";

async function withRecord(learner: string[] | undefined, use: (dir: string) => void): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "eval-header-"));
  try {
    const record = learner === undefined ? { checkpoint: "14", dir } : { checkpoint: "14", dir, learner };
    await writeFile(path.join(dir, PRACTICE_RECORD), JSON.stringify(record));
    use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test("评测的表头：没有 --from 是课程的参考实现；记录说全部是你写的，就说是你写的代码", async () => {
  assert.equal(whoseSuite(undefined, process.cwd()), "课程的参考实现");
  const chain = ["00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14"];
  await withRecord(chain, (dir) => {
    assert.equal(whoseSuite(dir, process.cwd()), `${dir} 里你写的代码`, "从第 00 章一路带过来：全部是你的");
  });
  await withRecord(undefined, (dir) => {
    assert.equal(whoseSuite(dir, process.cwd()), `${dir} 里你写的代码`, "没有章节记录的旧练习目录：照旧算你的");
  });
});

test("评测的表头：从第 13 章开始、没有 --from 的练习目录，按章说出哪些是你的、哪些是课程的参考实现", async () => {
  await withRecord(["13", "14"], (dir) => {
    assert.equal(
      whoseSuite(dir, process.cwd()),
      `${dir} 里的代码：你写的是第 13、14 章，第 06、07、08、09、10、11、12 章是课程的参考实现（建练习目录时带进来的）`,
    );
  });
});
