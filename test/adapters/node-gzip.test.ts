import { gunzipSync } from "node:zlib";
import test from "ava";
import { NodeGzip } from "../../adapters/compression/node-gzip.js";
import { ManualClock } from "../../adapters/memory/manual-clock.js";
import { jsonLines } from "../../core/data-exports/json-lines.js";

async function bytesOf(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function* records(count: number): AsyncGenerator<unknown> {
  for (let i = 0; i < count; i++) yield { i, text: "x".repeat(100) };
}

test("JSON Lines gzipped: one line per record, whatever the chunking", async (t) => {
  const text = gunzipSync(await bytesOf(new NodeGzip().compress(jsonLines(records(2_000))))).toString("utf8");
  const lines = text.trimEnd().split("\n");
  t.is(lines.length, 2_000);
  t.deepEqual(JSON.parse(lines[1_999]!), { i: 1_999, text: "x".repeat(100) });
});

test("a failing source fails the compressed stream", async (t) => {
  async function* failing(): AsyncGenerator<string> {
    yield "first\n";
    throw new Error("source broke");
  }
  await t.throwsAsync(bytesOf(new NodeGzip().compress(failing())), { message: "source broke" });
});

test("the manual clock sleeps by moving forward, without waiting", async (t) => {
  const clock = new ManualClock("2026-01-01T00:00:00.000Z");
  await clock.sleep(400);
  t.is(clock.now().toISOString(), "2026-01-01T00:00:00.400Z");
});
