/** Counts what `body` yields, stops past the size cap, and remembers the body's own failure. */
export class MeteredSource {
  bytes = 0;
  failure: unknown = undefined;

  constructor(
    private readonly body: AsyncIterable<Uint8Array>,
    private readonly maxBytes: number,
    private readonly tooLarge: () => Error,
  ) {}

  /** Ends the body's iteration when the upload stops early, so whatever feeds it is released. */
  async *chunks(): AsyncGenerator<Uint8Array> {
    const iterator = this.body[Symbol.asyncIterator]();
    let ended = false;
    try {
      for (;;) {
        let next: IteratorResult<Uint8Array>;
        try {
          next = await iterator.next();
        } catch (error) {
          ended = true;
          this.failure = error;
          throw error;
        }
        if (next.done) {
          ended = true;
          return;
        }
        this.bytes += next.value.byteLength;
        if (this.bytes > this.maxBytes) throw this.tooLarge();
        if (next.value.byteLength > 0) yield next.value;
      }
    } finally {
      if (!ended) await iterator.return?.();
    }
  }
}
