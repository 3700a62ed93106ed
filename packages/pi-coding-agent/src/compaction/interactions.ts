// An interaction is what one user message sets going: the message, the assistant turns after it
// and their tool results, up to the next user message. It is the unit compaction keeps or drops:
// inside it every call is followed by its result, so a cut between two interactions can never
// leave an orphan result or an unanswered call for the provider to reject.
import { type Message, toolCallsOf } from "@pi/core";

/** Messages `start` up to (not including) `end` of the list that was grouped. */
export interface Interaction {
  start: number;
  end: number;
}

/**
 * `messages` split at user messages (messages before the first user message are an interaction
 * of their own). The results of an assistant's calls may come in any order but must all come
 * before the next user or assistant message: an orphan result, a second result for a call and a
 * call left without a result are each one line naming the call id.
 */
export function groupInteractions(messages: readonly Message[]): Interaction[] {
  const groups: Interaction[] = [];
  let start = 0;
  let open = new Set<string>();
  let answered = new Set<string>();
  messages.forEach((message, index) => {
    if (message.role === "user" && index > 0) {
      groups.push({ start, end: index });
      start = index;
    }
    if (message.role === "toolResult") {
      const id = message.toolCallId;
      if (answered.has(id))
        throw new Error(`调用 ${id} 有第二个结果（第 ${index + 1} 条消息）：每个调用只能有一个结果`);
      if (!open.has(id))
        throw new Error(`第 ${index + 1} 条消息是调用 ${id} 的结果，但它前面的 assistant 没有这个调用`);
      open.delete(id);
      answered.add(id);
      return;
    }
    const [unanswered] = open;
    if (unanswered !== undefined) {
      throw new Error(`调用 ${unanswered} 没有结果：第 ${index + 1} 条消息之前应先有它的 toolResult`);
    }
    if (message.role === "assistant") {
      open = new Set(toolCallsOf(message).map((call) => call.id));
      answered = new Set();
    }
  });
  const [unanswered] = open;
  if (unanswered !== undefined) throw new Error(`调用 ${unanswered} 没有结果：消息在它的 toolResult 之前就结束了`);
  if (messages.length > 0) groups.push({ start, end: messages.length });
  return groups;
}
