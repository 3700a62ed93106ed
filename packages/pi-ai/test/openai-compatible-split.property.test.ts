// Property: however the bytes of a stream are split across TCP writes (inside a UTF-8 character,
// an escape, a `data:` line or the `\n\n` between events), the consumer sees the same turn.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { openAICompatibleModel } from "@pi/ai";
import fc from "fast-check";
import { fixtureBytes, fixtureNames } from "./support/fixtures.js";
import { LoopbackServer, sse } from "./support/loopback-server.js";
import { runTurn, withoutTimestamp } from "./support/turns.js";

const RUNS_PER_FIXTURE = 12;
/** Fixed, as in @pi/course's property tests, so `npm test` is reproducible; PI_PROPERTY_SEED explores others. */
const SEED = Number(process.env.PI_PROPERTY_SEED ?? 20260707);

let server: LoopbackServer;
before(async () => {
  server = await LoopbackServer.start();
});
after(() => server.close());

async function replay(body: Buffer, cuts: number[]) {
  server.reply(sse(body, cuts));
  const model = openAICompatibleModel({ baseURL: server.baseURL, model: "test-model", apiKey: "sk-test" });
  const { events, assistant } = await runTurn(model);
  return { events, assistant: withoutTimestamp(assistant) };
}

for (const name of fixtureNames(".sse")) {
  test(`任意字节边界切分 ${name}：事件与最终消息和一次写完全相同`, async (t) => {
    t.diagnostic(`fast-check seed ${SEED}, ${RUNS_PER_FIXTURE} runs (PI_PROPERTY_SEED to change)`);
    const body = fixtureBytes(name);
    const whole = await replay(body, []);
    assert.equal(whole.events[0]?.type, "start");
    const cuts = fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { minLength: 1, maxLength: 40 });
    // Every multi-byte UTF-8 character of the body, cut after its first byte, as one fixed example.
    const insideCharacters = [...body.keys()].filter((index) => (body[index] as number) >= 0xc0).map((i) => i + 1);
    const examples: [number[]][] = insideCharacters.length > 0 ? [[insideCharacters]] : [];
    await fc.assert(
      fc.asyncProperty(cuts, async (points) => {
        assert.deepEqual(await replay(body, points), whole);
      }),
      { numRuns: RUNS_PER_FIXTURE, seed: SEED, examples },
    );
  });
}
