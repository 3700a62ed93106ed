// The arguments of `checkpoint --new NN`: given as options, or asked for one by one on a terminal.
import { createInterface } from "node:readline/promises";
import { UsageError } from "../usage-error.js";
import type { NewCheckpointRequest } from "./new-checkpoint.js";

/** Each option of `--new`, with the question a terminal asks when it is missing. */
export const NEW_OPTIONS = {
  title: { question: "标题（检查点的一句话目标）", example: '--title "让会话历史成为一棵树"' },
  chapter: { question: "章节名", example: '--chapter "会话树：…"' },
  package: { question: "本章构建的包", example: "--package @pi/coding-agent" },
  teaching: {
    question: "教学文件（逗号分隔的仓库路径）",
    example: "--teaching packages/pi-coding-agent/src/session/tree.ts",
  },
} as const;

export interface NewValues {
  title?: string | undefined;
  chapter?: string | undefined;
  package?: string | undefined;
  teaching?: string | undefined;
  changes?: string | undefined;
  labs?: string | undefined;
  "test-name"?: string | undefined;
}

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");

export async function newRequest(id: string, values: NewValues, interactive: boolean): Promise<NewCheckpointRequest> {
  const given: Record<string, string | undefined> = { ...values };
  const missing = (Object.keys(NEW_OPTIONS) as (keyof typeof NEW_OPTIONS)[]).filter((key) => !given[key]?.trim());
  if (missing.length > 0 && !interactive) {
    throw new UsageError(`--new ${id} 还缺：${missing.map((key) => NEW_OPTIONS[key].example).join(" ")}`);
  }
  if (missing.length > 0) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      for (const key of missing) given[key] = (await rl.question(`${NEW_OPTIONS[key].question}：`)).trim();
    } finally {
      rl.close();
    }
  }
  const teaching = list(given.teaching);
  const firstName =
    teaching[0]
      ?.split("/")
      .at(-1)
      ?.replace(/\.[a-z]+$/, "") ?? "";
  return {
    id,
    title: given.title ?? "",
    chapter: given.chapter ?? "",
    package: given.package ?? "",
    teaching,
    changes: list(given.changes),
    labs: given.labs === undefined ? 3 : Number(given.labs),
    testName: given["test-name"] ?? firstName.toLowerCase(),
  };
}
