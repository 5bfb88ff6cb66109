import { pipeline, Readable } from "node:stream";
import { createGzip } from "node:zlib";
import type { Gzip } from "../../core/ports/gzip.js";

/** Gzip with node:zlib, streamed: the compressed bytes come as the consumer reads them. */
export class NodeGzip implements Gzip {
  compress(text: AsyncIterable<string>): AsyncIterable<Uint8Array> {
    // pipeline destroys both streams when either fails, so the consumer sees the source's error.
    return pipeline(Readable.from(text, { objectMode: false }), createGzip(), () => undefined);
  }
}
