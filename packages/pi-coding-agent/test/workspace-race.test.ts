import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { useProcFds } from "../src/tools/workspace-dir.js";
import { resultText, SECRET, spawnNodeScript, withWorkspace } from "./workspace-fixture.js";

// Unguarded, each tool escaped within 1–35 tries (issue 22): 300 keeps a wide margin at a third of the time.
const TRIES = 300;

const posixOnly = { skip: process.platform === "win32" ? "symlinks need privileges on Windows" : false };

/**
 * A second process that swaps the workspace folder `sub` for a symlink to an outside folder and
 * back, as fast as it can, until it is killed. It prints one line after its first full swap.
 */
function startSwapper(root: string, outsideSub: string) {
  const sub = path.join(root, "sub");
  const parked = path.join(root, "sub-parked");
  return spawnNodeScript(`
    import fs from "node:fs";
    const [sub, parked, outside] = ${JSON.stringify([sub, parked, outsideSub])};
    const quiet = (step) => { try { step(); } catch {} };
    for (let round = 0; ; round += 1) {
      quiet(() => fs.renameSync(sub, parked));
      quiet(() => fs.symlinkSync(outside, sub));
      quiet(() => fs.unlinkSync(sub));
      quiet(() => fs.renameSync(parked, sub));
      if (round === 0) console.log("swapping");
    }`);
}

for (const mechanism of ["/proc/self/fd", "打开后再核对"] as const) {
  const promise =
    mechanism === "/proc/self/fd"
      ? "都不读出、不改动、不创建外部的任何文件"
      : "都不读出、不改动外部文件，不把任何内容写到外部";
  test(`竞争（${mechanism}）：另一个进程不停把工作区里的目录换成指向外部的 symlink，${TRIES} 次 read、write、edit ${promise}`, {
    ...posixOnly,
    timeout: 300_000,
  }, async () => {
    useProcFds(mechanism === "/proc/self/fd");
    try {
      await raceTries(mechanism === "/proc/self/fd");
    } finally {
      useProcFds(true);
    }
  });
}

/**
 * `makeFolders` (the /proc/self/fd mechanism): nothing at all appears outside, also when writes
 * create a folder under the swapped one. Without /proc/self/fd, a temp file or folder made in
 * the instant of a swap can land outside, empty (docs/security.md): that variant writes into the
 * swapped folder itself and allows only empty temp files of write and edit there.
 */
async function raceTries(makeFolders: boolean): Promise<void> {
  await withWorkspace(async (ws) => {
    // The outside twin of `sub` holds every text an escaped edit could match and a secret an escaped read would show.
    const outsideSub = path.join(ws.outside, "sub");
    await mkdir(outsideSub);
    const counters = Array.from({ length: TRIES + 1 }, (_, n) => `count=${n}\n`).join("");
    const outsideText = `${counters}${SECRET}`;
    await writeFile(path.join(outsideSub, "a.txt"), outsideText);
    await ws.put("sub/a.txt", "count=0\n");

    const swapper = startSwapper(ws.root, outsideSub);
    let refused = 0;
    let count = 0;
    try {
      await swapper.firstLine;
      for (let i = 0; i < TRIES; i += 1) {
        const read = await ws.call("read", { path: "sub/a.txt" });
        assert.ok(!resultText(read).includes(SECRET.trim()), `第 ${i} 次 read 没有读出外部文件`);
        const edit = await ws.call("edit", {
          path: "sub/a.txt",
          edits: [{ oldText: `count=${count}\n`, newText: `count=${count + 1}\n` }],
        });
        if (!edit.isError) count += 1;
        const write = await ws.call("write", {
          path: `sub/${makeFolders ? "deep/" : ""}w-${i % 10}.txt`,
          content: "w\n",
        });
        refused += [read, edit, write].filter((result) => result.isError).length;
      }
    } finally {
      swapper.process.kill("SIGKILL");
      await swapper.exited;
    }
    assert.equal(await readFile(path.join(outsideSub, "a.txt"), "utf8"), outsideText, "外部文件没有被 edit 改动");
    const created = (await readdir(outsideSub)).filter((name) => name !== "a.txt");
    if (makeFolders) assert.deepEqual(created, [], "外部目录里没有出现 write 或 mkdir 创建的任何东西");
    for (const name of created) {
      // Without /proc/self/fd the one thing a swap can leave: an empty temp file of a write (w-N.txt) or an
      // edit (a.txt, written back atomically), verified and abandoned before any byte.
      assert.match(name, /^\.(w-\d|a)\.txt\.[0-9a-f]{12}\.tmp$/, "外部只可能留下 write 或 edit 的空临时文件");
      assert.equal((await stat(path.join(outsideSub, name))).size, 0, "留下的临时文件是空的：没有内容写到外部");
    }
    assert.deepEqual((await readdir(ws.outside)).sort(), ["secret.txt", "sub"], "外部没有别的新文件");
    assert.ok(refused > 0, "交换确实打在了检查与使用之间（有调用因此被拒绝）");
    // The swapper stopped anywhere in its round: put the workspace folder back, then edit works as usual.
    const sub = path.join(ws.root, "sub");
    if (existsSync(path.join(ws.root, "sub-parked"))) {
      await rm(sub, { recursive: true, force: true }); // a link, or a folder a write made while sub was away
      await rename(path.join(ws.root, "sub-parked"), sub);
    }
    const after = await ws.call("edit", {
      path: "sub/a.txt",
      edits: [{ oldText: `count=${count}\n`, newText: "done\n" }],
    });
    assert.equal(after.isError, false, `交换停下后 edit 照常成功：${resultText(after)}`);
  });
}
