/** Lines are handed on in chunks of about this many characters, not one by one (gzip works per chunk). */
const CHUNK_CHARS = 64 * 1024;

/**
 * JSON Lines as a stream of text chunks: each record becomes one line, produced only as fast as
 * the consumer takes them, so no file is ever held whole.
 */
export async function* jsonLines(records: AsyncIterable<unknown>): AsyncGenerator<string> {
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
