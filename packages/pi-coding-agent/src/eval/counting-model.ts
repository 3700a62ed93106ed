// Counts what a model did during one run, from its results only: requests (steps), tool calls
// and reported tokens. It never keeps a request or a result, so nothing else can leak from it.
import { type Model, type ModelRequest, type ModelStreamOptions, toolCallsOf } from "@pi/core";

export interface ModelCounts {
  steps: number;
  calls: number;
  tokens: number;
}

export function countingModel(inner: Model): { model: Model; counts(): ModelCounts } {
  const counts: ModelCounts = { steps: 0, calls: 0, tokens: 0 };
  const model: Model = {
    stream(request: ModelRequest, options?: ModelStreamOptions) {
      counts.steps += 1;
      const stream = inner.stream(request, options);
      const result = stream.result.bind(stream);
      let counted: ReturnType<typeof result> | undefined;
      return Object.assign(stream, {
        result() {
          counted ??= result().then((message) => {
            counts.calls += toolCallsOf(message).length;
            counts.tokens += (message.usage?.input ?? 0) + (message.usage?.output ?? 0);
            return message;
          });
          return counted;
        },
      });
    },
  };
  return { model, counts: () => ({ ...counts }) };
}
