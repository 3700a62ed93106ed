// How a compaction fits between the steps of one turn without touching chapter 07's loop: the
// loop keeps its whole transcript, and this Model sends each request through the Compactor, so
// every request carries the newest compaction's summary plus the kept suffix (compacting first
// when the older part no longer fits). A compaction that fails ends the request as a model
// error (or an abort) with the Compactor's one line; the loop then ends the turn as it does for
// any failed request.
import { assistantMessage, type Model, type ModelStream, PushModelStream } from "@pi/core";
import { COMPACTION_FAILED, CompactionError } from "./compaction-error.js";
import type { Compactor } from "./compaction-turn.js";

export function compactingModel(model: Model, compactor: Compactor): Model {
  return {
    stream(request, options) {
      const out = new PushModelStream();
      void (async () => {
        let messages: typeof request.messages;
        try {
          messages = await compactor.fit(request, options?.signal);
        } catch (error) {
          // A path buildContext refuses (a result without its call, say) is a failed request too, never a broken loop.
          const known = error instanceof CompactionError;
          const line = known
            ? error.message
            : `${COMPACTION_FAILED}：${String((error as Error)?.message ?? error).split("\n")[0]}`;
          const reason = known && error.aborted ? "aborted" : "error";
          out.push({ type: "error", reason, message: line });
          out.end({ ...assistantMessage([], reason), errorMessage: line });
          return;
        }
        await forward(model.stream({ ...request, messages }, options), out);
      })();
      return out;
    },
  };
}

async function forward(stream: ModelStream, out: PushModelStream): Promise<void> {
  try {
    for await (const event of stream) out.push(event);
    out.end(await stream.result());
  } catch (error) {
    out.fail(error);
  }
}
