// Model changes on the branch, as Pi records them: after a turn, a `model_change` when the model
// that answered is not the one in force before it (a fallback, a route's new choice); at /model,
// one for the physical model switched to. The Runtime writes them like any entry of its path.

import type { AgentRunResult } from "@pi/course";
import { type changeAfterTurn, lookupModel, THINKING_LEVELS } from "../models/index.js";
import type { Runtime } from "../runtime/index.js";
import type { ModelSwitch } from "./model-switch.js";

/**
 * The model in force on one Runtime's branch. It starts as the branch says (the file's entries
 * carry who answered), else as the selection starts; then each turn's answer and each /model
 * move it. Replies of a physical selection are not marked in the Runtime's own path (only on
 * their way to the file), so the branch is read once, at open, and followed from there.
 */
export class ModelRecord {
  readonly runtime: Runtime;
  private inForce: string;

  constructor(
    private readonly inner: Runtime,
    private readonly models: ModelSwitch,
  ) {
    this.inForce = models.code.modelInForce(inner.compaction.path()) ?? models.startsOn().id;
    this.runtime = { ...inner, prompt: (input, options) => this.prompt(input, options) };
  }

  /** The physical id in force at the Runtime's leaf. */
  current(): string {
    return this.inForce;
  }

  /** Chapter 19: `turn` goes on with a task a crash left unfinished on this Runtime, recorded like a prompt's turn. */
  goOn(turn: (runtime: Runtime) => Promise<AgentRunResult>): Promise<AgentRunResult> {
    return this.recorded(() => turn(this.inner));
  }

  private prompt(...args: Parameters<Runtime["prompt"]>): ReturnType<Runtime["prompt"]> {
    return this.recorded(() => this.inner.prompt(...args));
  }

  private async recorded(turn: () => Promise<AgentRunResult>): Promise<AgentRunResult> {
    const before = this.inForce;
    this.models.setInForce(before);
    const result = await turn();
    const answered = this.models.answered(result.messages);
    await this.record(
      this.models.code.changeAfterTurn(before, answered, this.inner.leafId(), this.inner.compaction.newId()),
    );
    return result;
  }

  /** /model NAME: selects it; a physical model other than the one in force is recorded at once. Resolves with the line to show. */
  async switchTo(name: string): Promise<string> {
    const { models } = this;
    if (name === "") return `当前模型：${models.describe()}；用 /model ID 切换`;
    let id: string;
    try {
      id = lookupModel(models.catalogue, name, "/model ");
    } catch (error) {
      return (error as Error).message;
    }
    models.select(id);
    if (models.catalogue.physical.has(id) && id !== this.inForce) {
      await this.record(models.code.modelChangeEntry(id, this.inner.leafId(), this.inner.compaction.newId()));
    }
    return `（已切换到 ${models.describe()}）`;
  }

  /**
   * /thinking LEVEL: Pi's thinking level for the branch, recorded as Pi records it when it changes.
   * tiny-pi's provider sends no reasoning effort: the level is kept for Pi and for routes to read.
   */
  async setThinking(level: string): Promise<string> {
    const current = this.models.code.thinkingLevelInForce(this.inner.compaction.path());
    if (level === "") return `当前思考级别：${current}；用 /thinking ${THINKING_LEVELS.join("|")} 设置`;
    if (!(THINKING_LEVELS as readonly string[]).includes(level)) {
      return `/thinking ${level}：不是 Pi 的思考级别，可选 ${THINKING_LEVELS.join("、")}`;
    }
    if (level !== current) {
      this.inner.compaction.appendEntry(
        this.models.code.thinkingLevelChangeEntry(level, this.inner.leafId(), this.inner.compaction.newId()),
      );
      await this.inner.flush();
    }
    return `（思考级别：${level}，记在这个分支上；tiny-pi 的 provider 不发送 reasoning effort）`;
  }

  private async record(change: ReturnType<typeof changeAfterTurn>): Promise<void> {
    if (change === undefined) return;
    this.inForce = `${change.provider}/${change.modelId}`;
    this.inner.compaction.appendEntry(change);
    await this.inner.flush();
  }
}
