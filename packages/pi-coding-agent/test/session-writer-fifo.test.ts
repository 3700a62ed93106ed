// The JSONL store's one FIFO writer, observed without timing: every write goes through
// node:fs/promises' appendFile, which this test holds (module.syncBuiltinESMExports() makes the
// store's named import see the held version), so it sees exactly when each write starts. An
// append made while an earlier write is still running must not start its own write until that
// one has finished, and each line is the entry as it was when append was called.
import assert from "node:assert/strict";
import fsPromises from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { test } from "node:test";
import { JsonlSessionStore } from "../src/session/jsonl-store.js";
import { HANG_GUARD_MS } from "./hang-guard.js";
import { HEADER, user, withSessionDir } from "./session-fixture.js";

interface HeldWrite {
  data: string;
  release(): void;
}

/** Runs `use` while every appendFile waits for the test to release it; held writes are listed in start order. */
async function withHeldWrites(use: (held: HeldWrite[]) => Promise<void>): Promise<void> {
  const real = fsPromises.appendFile;
  const held: HeldWrite[] = [];
  fsPromises.appendFile = ((file: string, data: string, options: object) =>
    new Promise<void>((resolve, reject) => {
      held.push({ data, release: () => real(file, data, options).then(resolve, reject) });
    })) as typeof fsPromises.appendFile;
  syncBuiltinESMExports();
  try {
    await use(held);
  } finally {
    fsPromises.appendFile = real;
    syncBuiltinESMExports();
  }
}

/** Lets every pending promise callback run (no clock involved). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

test("JSONL 存储的 FIFO 写入者：前一次写入没有完成时，后一次追加不开始写；每行是调用那一刻的条目，文件按调用顺序成链", {
  timeout: HANG_GUARD_MS,
}, async () => {
  await withSessionDir(async (dir) => {
    const file = path.join(dir, "fifo.jsonl");
    const store = await JsonlSessionStore.create(file, HEADER);
    await withHeldWrites(async (held) => {
      const first = user("a0000001", null, "第一条");
      const firstWritten = store.append(first);
      const secondWritten = store.append(user("a0000002", "a0000001", "第二条"));
      first.message.content = "调用之后才改的";
      await settle();
      assert.equal(held.length, 1, "第二条在第一条写完之前不开始写（一个实例只有一个 FIFO 写入者）");
      assert.match(held[0]?.data ?? "", /"第一条"/, "写出的是调用那一刻的条目");

      held[0]?.release();
      await firstWritten;
      await settle();
      assert.equal(held.length, 2, "第一条写完后第二条才开始写");
      assert.match(held[1]?.data ?? "", /"a0000002"/);
      held[1]?.release();
      await secondWritten;
    });
    const reopened = await JsonlSessionStore.open(file);
    assert.deepEqual(
      reopened.entries().map((entry) => entry.id),
      ["a0000001", "a0000002"],
      "文件里的条目按调用顺序",
    );
  });
});
