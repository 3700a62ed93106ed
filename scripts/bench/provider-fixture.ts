// The provider part's one stream: 10,000 chunks in OpenAI's wire format, a README-style answer
// (8,000 text fragments) followed by one `write` call whose arguments arrive in 1,996 fragments.

export const PROVIDER_CHUNKS = 10_000;
export const TEXT_CHUNKS = 8_000;
/** Role chunk + text + call start + argument fragments + finish chunk + usage chunk. */
export const ARGUMENT_CHUNKS = PROVIDER_CHUNKS - TEXT_CHUNKS - 4;

const HEAD =
  '{"id":"chatcmpl-BenchR2xWq9c3Zl0N7tYp4Jd8sQ","object":"chat.completion.chunk","created":1750000000,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":"fp_34a54ae93c",';

function chunk(delta: object | undefined, finishReason: string | null = null): string {
  const choices =
    delta === undefined ? "[]" : JSON.stringify([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
  const usage =
    delta === undefined
      ? JSON.stringify({ prompt_tokens: 120, completion_tokens: PROVIDER_CHUNKS, total_tokens: 10_120 })
      : "null";
  return `data: ${HEAD}"choices":${choices},"usage":${usage}}\n\n`;
}

export interface ProviderFixture {
  body: Buffer;
  text: string;
  content: string;
}

export function providerFixture(): ProviderFixture {
  const parts: string[] = [chunk({ role: "assistant", content: "", refusal: null })];
  let text = "";
  for (let index = 0; index < TEXT_CHUNKS; index += 1) {
    const piece = index % 10 === 9 ? "pi. " : "word ";
    text += piece;
    parts.push(chunk({ content: piece }));
  }
  const call = {
    index: 0,
    id: "call_BenchW5pL1tArGs9Kq2Zm4",
    type: "function",
    function: { name: "write", arguments: "" },
  };
  parts.push(chunk({ role: "assistant", content: null, tool_calls: [call] }));
  const fragments = ['{"path":"notes.md","content":"', ...Array(ARGUMENT_CHUNKS - 2).fill("line\\n"), '"}'];
  for (const fragment of fragments)
    parts.push(chunk({ tool_calls: [{ index: 0, function: { arguments: fragment } }] }));
  parts.push(chunk({}, "tool_calls"));
  parts.push(chunk(undefined));
  parts.push("data: [DONE]\n\n");
  if (parts.length - 1 !== PROVIDER_CHUNKS) throw new Error(`provider fixture has ${parts.length - 1} chunks`);
  return { body: Buffer.from(parts.join(""), "utf8"), text, content: "line\n".repeat(ARGUMENT_CHUNKS - 2) };
}
