/**
 * Reads that stay the same for the length of a batch of work (a company's sender, theme, footer,
 * tracking settings): each key is read once per batch and shared by its items. A batch is short
 * (the sequence engine's lasts about half a second), so a change applies from the next one.
 */
export interface Reads {
  once<T>(key: string, read: () => Promise<T>): Promise<T>;
}

/** Reads of one batch: each key once; a read that fails is tried again by the next item. */
export class BatchReads implements Reads {
  private readonly values = new Map<string, Promise<unknown>>();

  once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let value = this.values.get(key) as Promise<T> | undefined;
    if (!value) {
      value = read();
      this.values.set(key, value);
      value.catch(() => this.values.delete(key));
    }
    return value;
  }
}

/** Outside a batch: every read goes to the store. */
export const FRESH_READS: Reads = { once: (_key, read) => read() };
