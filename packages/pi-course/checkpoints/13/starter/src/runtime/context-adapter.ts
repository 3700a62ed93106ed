// Checkpoint 13 · 学习脚手架：（待填写）公共表面已经声明。4 段 Lab 的算法
// 抛出 `Lab 13.N … 尚未实现`，留给你实现。按编号顺序完成 `// Lab 13.N` 注释描述的动作，
// 删除对应的临时错误，然后只运行这一段的测试，例如：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="（待填写）模式 1" packages/pi-coding-agent/dist/test/13-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.

export function lab13_1(): never {
  // Lab 13.1 ①：（待填写）这一步要做什么、为什么。
  throw new Error("Lab 13.1 （待填写）第 1 段 尚未实现");
}

export function lab13_2(): never {
  // Lab 13.2 ①：（待填写）这一步要做什么、为什么。
  throw new Error("Lab 13.2 （待填写）第 2 段 尚未实现");
}

export function lab13_3(): never {
  // Lab 13.3 ①：（待填写）这一步要做什么、为什么。
  throw new Error("Lab 13.3 （待填写）第 3 段 尚未实现");
}

export function lab13_4(): never {
  // Lab 13.4 ①：（待填写）这一步要做什么、为什么。
  throw new Error("Lab 13.4 （待填写）第 4 段 尚未实现");
}
