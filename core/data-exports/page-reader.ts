/**
 * Rows read a page at a time, the next page fetched while the current one is written (the
 * database and the compression overlap). `fetch(last)` reads the page after `last` (null: the
 * first page); a short page is the last.
 */
export class PageReader<T> {
  private page: readonly T[] = [];
  private index = 0;
  private pending: Promise<readonly T[]> | null;

  constructor(
    private readonly fetch: (last: T | null) => Promise<readonly T[]>,
    private readonly pageSize: number,
  ) {
    this.pending = this.prefetch(null);
  }

  /** The next row without taking it; undefined at the end. */
  async peek(): Promise<T | undefined> {
    while (this.index >= this.page.length) {
      if (!this.pending) return undefined;
      const page = await this.pending;
      this.page = page;
      this.index = 0;
      const last = page[page.length - 1];
      this.pending = page.length < this.pageSize || last === undefined ? null : this.prefetch(last);
    }
    return this.page[this.index];
  }

  take(): void {
    this.index += 1;
  }

  private prefetch(last: T | null): Promise<readonly T[]> {
    const next = this.fetch(last);
    // Awaited later; until then a failure must not count as unhandled (the run may stop first).
    next.catch(() => undefined);
    return next;
  }
}
