import assert from "node:assert/strict";
import { test } from "node:test";
import { cmdShim } from "../lib/trees/tree-links.js";

test("Windows 的 .bin/*.cmd 用 PATH 上的 node 运行脚本（不写死 node.exe 路径），并转发全部参数", () => {
  const script = "C:\\Users\\Ana Li\\pi-course\\node_modules\\typescript\\bin\\tsc";
  const shim = cmdShim(script);
  assert.equal(shim, `@node "${script}" %*\r\n`);
  assert.doesNotMatch(shim, new RegExp(process.execPath.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")));
});
