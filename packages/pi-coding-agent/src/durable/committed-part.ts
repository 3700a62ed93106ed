// What a durable file has committed. A line is complete when it ends with "\n"; a batch (a durable
// entry with `batch: k`, then k − 1 more lines, written in one write) is committed only when all k
// lines are complete. Everything after the last committed line or batch is the torn tail: a write
// a crash cut off, ignored on read and cut off (never glued onto) before the next commit.

export interface CommittedPart {
  /** UTF-8 bytes up to and including the last committed line. */
  bytes: number;
  /** The committed lines, parsed (the header first). */
  values: unknown[];
  /** Bytes after `bytes`: a cut-off line or an incomplete batch. */
  tornBytes: number;
}

function batchSize(value: unknown): number {
  if (typeof value !== "object" || value === null) return 1;
  const data = (value as { data?: { batch?: unknown } }).data;
  const batch = (value as { customType?: unknown }).customType === "tiny-pi/durable" ? data?.batch : undefined;
  return typeof batch === "number" && Number.isInteger(batch) && batch > 1 ? batch : 1;
}

/** The committed part of `content`; a complete line that is not JSON is one line naming it. */
export function committedPart(content: string, file = "会话文件"): CommittedPart {
  const buffer = Buffer.from(content, "utf8");
  const values: unknown[] = [];
  let committedBytes = 0;
  let at = 0;
  let line = 0;
  let pending: { left: number; values: unknown[] } | undefined;
  while (at < buffer.length) {
    const end = buffer.indexOf(0x0a, at);
    if (end === -1) break;
    line += 1;
    const text = buffer.subarray(at, end).toString("utf8");
    at = end + 1;
    if (text.trim() === "") {
      if (pending === undefined) committedBytes = at;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error(`${file} 第 ${line} 行不是合法的 JSON`);
    }
    if (pending === undefined) {
      const size = batchSize(value);
      if (size > 1) {
        pending = { left: size - 1, values: [value] };
        continue;
      }
      values.push(value);
      committedBytes = at;
      continue;
    }
    pending.values.push(value);
    pending.left -= 1;
    if (pending.left === 0) {
      values.push(...pending.values);
      pending = undefined;
      committedBytes = at;
    }
  }
  return { bytes: committedBytes, values, tornBytes: buffer.length - committedBytes };
}
