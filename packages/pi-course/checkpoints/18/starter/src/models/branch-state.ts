// Checkpoint 18 · 学习脚手架：分支上的状态。THINKING_LEVELS 已经写好。Lab 18.3 的几处先抛出“尚未实现”的临时错误。
// 按编号完成 `// Lab 18.3` 注释描述的动作，删除临时错误，然后只运行这一段的测试：
//   npm run build -w @pi/coding-agent
//   node --test --test-name-pattern="分支上的状态" packages/pi-coding-agent/dist/test/18-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
// The model (and thinking level) in force is a fact of the branch, derived the way Pi derives it:
// walking back from the leaf, the newest `model_change` entry, or the newest reply that names who
// answered it (an errored or aborted reply is no choice), wins. Entries on other branches, however
// new, say nothing about this one. A change is recorded as Pi's own entry, and only when the model
// that answered a turn is not the one in force before it.
import {
  type ModelChangeEntry,
  newEntryId,
  type SessionEntry,
  type ThinkingLevelChangeEntry,
} from "../session/entries.js";
import { answeredBy, isReply } from "./answered.js";
import { physicalId } from "./catalogue.js";

/** Pi's thinking levels; a branch with no `thinking_level_change` is at "off". */
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"] as const;

/** The physical id in force at the end of `path` (root → leaf), or undefined when the branch never named one. */
export function modelInForce(path: readonly SessionEntry[]): string | undefined {
  // Lab 18.3 ①：从叶（path 的最后一条）往回走，第一条说出了模型的条目决定：
  //   model_change → physicalId(entry.provider, entry.modelId)；
  //   message → isReply(entry.message) 时 answeredBy(entry.message)（带 provider/model 的回答；出错或中止的回答不算，接着往回走）；
  //   有效的回答却没带 provider/model（answeredBy 给出 undefined）→ 它什么也没说，跳过，接着往回走，不要停下；
  //   别的条目什么也不说。一直走到根（path[0] 也要读）还没有 → undefined。只看 path：别的分支上的条目，再新也不算。
  throw new Error("Lab 18.3 分支上的状态 尚未实现");
}

/** The thinking level in force at the end of `path`: the newest `thinking_level_change`, else "off". */
export function thinkingLevelInForce(path: readonly SessionEntry[]): string {
  // Lab 18.3 ②：同样从叶往回，第一条 thinking_level_change 的 thinkingLevel；没有 → "off"。
  throw new Error("Lab 18.3 分支上的状态 尚未实现");
}

/** Pi's `model_change` entry for physical id `id` under `parentId`. */
export function modelChangeEntry(
  id: string,
  parentId: string | null,
  entryId: string = newEntryId(),
  now: Date = new Date(),
): ModelChangeEntry {
  // Lab 18.3 ③：Pi 的形状，不多不少：{ type: "model_change", id: entryId, parentId, timestamp: now.toISOString(),
  //   provider, modelId }，provider 与 modelId 从 id 的第一个 / 处拆开（modelId 里可以还有 /）。
  throw new Error("Lab 18.3 分支上的状态 尚未实现");
}

/** Pi's `thinking_level_change` entry under `parentId`. */
export function thinkingLevelChangeEntry(
  thinkingLevel: string,
  parentId: string | null,
  entryId: string = newEntryId(),
  now: Date = new Date(),
): ThinkingLevelChangeEntry {
  // Lab 18.3 ④：{ type: "thinking_level_change", id: entryId, parentId, timestamp: now.toISOString(), thinkingLevel }。
  throw new Error("Lab 18.3 分支上的状态 尚未实现");
}

/**
 * The `model_change` a turn calls for, to go after its messages: `after` (who answered it) when it
 * is not `before` (the model in force before the turn); none when nothing answered (a failed turn,
 * a routing failure) or the model stayed the same.
 */
export function changeAfterTurn(
  before: string | undefined,
  after: string | undefined,
  parentId: string | null,
  entryId?: string,
): ModelChangeEntry | undefined {
  // Lab 18.3 ⑤：这一轮没有回答（after 是 undefined：失败的一轮、选不出模型的一轮）或模型没变（after === before）
  //   → undefined，什么也不写；否则 modelChangeEntry(after, parentId, entryId)，它写在这一轮的消息之后。
  throw new Error("Lab 18.3 分支上的状态 尚未实现");
}
