import { pipeline, Readable } from "node:stream";
import { createGzip } from "node:zlib";

/** Lines are handed to gzip in chunks of about this many characters, not one by one. */
const CHUNK_CHARS = 64 * 1024;

/**
 * JSON Lines, gzipped, as a stream: each record becomes one line, produced only as fast as the
 * consumer (the bucket upload) takes the compressed bytes, so no file is ever held whole.
 */
export function gzipJsonLines(records: AsyncIterable<unknown>): AsyncIterable<Uint8Array> {
  async function* text(): AsyncGenerator<string> {
    let chunk = "";
    for await (const record of records) {
      chunk += `${JSON.stringify(record)}\n`;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = "";
      }
    }
    if (chunk !== "") yield chunk;
  }
  // pipeline destroys both streams when either fails, so the consumer sees the source's error.
  return pipeline(Readable.from(text(), { objectMode: false }), createGzip(), () => undefined);
}
