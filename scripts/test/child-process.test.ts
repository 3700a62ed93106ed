import assert from "node:assert/strict";
import { test } from "node:test";
import { npmInvocation, quoteForCmd } from "../lib/run/child-process.js";

const nodeExe = "C:\\Program Files\\nodejs\\node.exe";
const besideNode = "C:\\Program Files\\nodejs\\node_modules\\npm\\bin\\npm-cli.js";
const args = ["run", "practice", "--", "07", "C:\\My Work\\practice 07"];

test("npm 由当前 node 运行 npm_execpath 指向的 npm-cli.js，不经过 shell", () => {
  const npmExecpath = "/usr/lib/node_modules/npm/bin/npm-cli.js";
  const invocation = npmInvocation(args, { platform: "win32", npmExecpath, execPath: nodeExe, exists: () => false });
  assert.deepEqual(invocation, { command: nodeExe, args: [npmExecpath, ...args], shell: false });
});

test("Windows 没有 npm_execpath 时用 node.exe 旁边的 npm-cli.js，带空格的路径仍是一个参数", () => {
  const invocation = npmInvocation(args, {
    platform: "win32",
    execPath: nodeExe,
    exists: (file) => file === besideNode,
  });
  assert.deepEqual(invocation, { command: nodeExe, args: [besideNode, ...args], shell: false });
});

test("Windows 只能经 cmd.exe 运行 npm.cmd 时，整行命令逐个参数加引号转义", () => {
  const invocation = npmInvocation(args, { platform: "win32", execPath: nodeExe, exists: () => false });
  assert.equal(invocation.shell, true);
  assert.deepEqual(invocation.args, []);
  assert.equal(invocation.command, ["npm", ...args.map(quoteForCmd)].join(" "));
});

test("Linux 与 macOS 没有 npm_execpath 时直接运行 PATH 上的 npm，不用 shell", () => {
  for (const platform of ["linux", "darwin"] as const) {
    const invocation = npmInvocation(args, { platform, execPath: "/usr/bin/node", exists: () => true });
    assert.deepEqual(invocation, { command: "npm", args, shell: false });
  }
});

test("cmd.exe 参数转义：空格留在引号内，引号、反斜杠与 cmd 特殊字符都转义两遍（cmd.exe 与 .cmd 各读一次）", () => {
  assert.equal(quoteForCmd("run"), '^^^"run^^^"');
  assert.equal(quoteForCmd("C:\\My Work\\07"), '^^^"C:\\My^^^ Work\\07^^^"');
  assert.equal(quoteForCmd('say "hi"'), '^^^"say^^^ \\^^^"hi\\^^^"^^^"');
  assert.equal(quoteForCmd("dir\\"), '^^^"dir\\\\^^^"', "结尾的反斜杠加倍，不会转义收尾的引号");
  assert.equal(quoteForCmd("a&b|c%PATH%"), '^^^"a^^^&b^^^|c^^^%PATH^^^%^^^"');
  assert.equal(quoteForCmd(""), '^^^"^^^"', "空参数仍占一个位置");
});
