import { token } from "../shared/token.js";

/** Compresses a stream of text with gzip, producing bytes only as fast as the consumer takes them. */
export interface Gzip {
  /** The gzip bytes of the concatenated text; fails with the source's error when the source fails. */
  compress(text: AsyncIterable<string>): AsyncIterable<Uint8Array>;
}
export const Gzip = token<Gzip>("lifecycle.Gzip");
