// What a finished turn means for the person at the terminal: exit 0 only on `stop`, and for any
// other ending one line that says what happened and what to change.
import type { AgentRunResult } from "@pi/course";
import { COMPACTION_FAILED, CONTEXT_TOO_BIG } from "../host/compaction-error.js";
import { EXIT_FAILED_RUN, EXIT_OK, RunError } from "../host/errors.js";
import { visible } from "../host/visible-text.js";

export interface OutcomeContext {
  /** The endpoint in use; absent for the embedded model. */
  baseURL?: string;
}

export function exitCodeOf(result: AgentRunResult): number {
  return result.reason === "stop" ? EXIT_OK : EXIT_FAILED_RUN;
}

/** One line for a turn that did not end in `stop`; undefined for one that did. */
export function failureLine(result: AgentRunResult, context: OutcomeContext): string | undefined {
  switch (result.reason) {
    case "stop":
      return undefined;
    case "aborted": {
      const compaction = lastErrorMessage(result);
      if (compaction?.startsWith(COMPACTION_FAILED)) return compaction;
      return "这一轮已中止（Ctrl-C）：已形成的消息都保留在会话里。";
    }
    case "maxSteps":
      return `达到上限：已请求模型 ${result.steps} 次仍未结束；需要更多步时用 --max-steps 调大上限。`;
    case "length":
      return "模型的输出被截断（length）：换一个上下文更长的模型，或把问题拆小。";
    case "error":
      return modelErrorLine(lastErrorMessage(result), context);
  }
}

function lastErrorMessage(result: AgentRunResult): string | undefined {
  for (let index = result.messages.length - 1; index >= 0; index -= 1) {
    const message = result.messages[index];
    if (message?.role === "assistant") return message.errorMessage;
  }
  return undefined;
}

/** A provider's one-line error (see @pi/ai's error-message.ts for its stable starts), with the fix its kind calls for. */
export function modelErrorLine(message: string | undefined, context: OutcomeContext): string {
  const detail = visible(message?.trim() || "模型没有说明原因");
  // Compaction's own lines (compaction-error.ts) already say what happened and what to do.
  if (detail.startsWith(COMPACTION_FAILED) || detail.startsWith(CONTEXT_TOO_BIG)) return detail;
  const server = context.baseURL ?? "模型服务";
  if (/^(401|403) /.test(detail)) {
    return `模型服务拒绝了密钥（${detail}）：请用 --api-key 或环境变量 OPENAI_API_KEY 给出有效的密钥。`;
  }
  if (/^404 /.test(detail)) {
    return `模型服务上找不到这个模型或路径（${detail}）：检查 --model 的名字（Ollama 用 ollama list 查看），以及 --base-url 是否以 /v1 结尾。`;
  }
  if (/^the server refused a request holding an image/.test(detail)) {
    return `模型服务拒绝了带图片的请求（${detail}）：这个会话里有图片（Pi 的 image 块）；换一个支持图片输入的模型，或用 --leaf 从图片之前的条目继续。`;
  }
  if (/^429 /.test(detail)) return `模型服务限流（${detail}）：稍后再试，或换一个模型。`;
  if (/^200 not an event stream/.test(detail)) {
    return `模型服务的回答不是事件流（${detail}）：检查 --base-url 是否指向 OpenAI 兼容服务的 /v1 地址；中间有代理时，确认它转发流式响应。`;
  }
  if (/^stream too large/.test(detail)) {
    return `模型服务发来的流超出上限，这一轮已停止（${detail}）：这不是正常的回答，请换一个模型或服务。`;
  }
  if (/^connection (error|timed out)/.test(detail)) {
    return `连不上 ${server}（${detail}）：请先启动模型服务，或检查 --base-url。`;
  }
  return `模型报告错误（${detail}）：再试一次；反复出现时换一个模型或服务。`;
}

/**
 * A prompt the Runtime rejected: its own refusal (a RuntimeError: busy, disposed, poisoned) is
 * already one line; anything else is the loop or the model breaking chapter 07's contract.
 */
export function promptFailure(error: unknown, loopSource: string): RunError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.name === "RuntimeError") return new RunError(message.split("\n")[0] as string);
  return new RunError(
    `${loopSource}的 runAgentLoop 没有正常结束（${message.split("\n")[0]}）：loop 或模型违反了第 07 章的约定，请对照 runAgentLoop 的失败语义检查。`,
  );
}
