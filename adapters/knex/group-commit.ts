interface Submission<I, O> {
  readonly items: readonly I[];
  readonly resolve: (outputs: O[]) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit: writes submitted within a few event-loop turns of each other, or while another
 * write is running, are written together, in submission order, by one call of `write` (one
 * transaction, one commit). A commit is what a small write costs most on SQLite, so under
 * concurrent load each request pays for a fraction of one. When a group fails, each submission
 * is retried on its own so that only the one at fault sees the error.
 *
 * The first submission of a group waits `turns` turns of the event loop (not a timer): an idle
 * process turns at once, so a lone write waits for nothing, while under load each turn is a
 * poll for I/O that brings more requests to the group.
 */
export class GroupCommit<I, O> {
  private pending: Array<Submission<I, O>> = [];
  private draining = false;

  constructor(
    /** Writes the items and returns one output per item, in order. */
    private readonly write: (items: readonly I[]) => Promise<O[]>,
    /** Event-loop turns the first submission of a group waits for others to join it (at least 1). */
    private readonly turns = 1,
    /** Items per group at most (a submission is never split). */
    private readonly maxItems = 1_000,
  ) {}

  submit(items: readonly I[]): Promise<O[]> {
    if (items.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.pending.push({ items, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        this.after(this.turns, () => void this.drain());
      }
    });
  }

  private after(turns: number, then: () => void): void {
    setImmediate(() => (turns > 1 ? this.after(turns - 1, then) : then()));
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      let size = 0;
      let taken = 0;
      while (taken < this.pending.length && (taken === 0 || size + this.pending[taken]!.items.length <= this.maxItems)) {
        size += this.pending[taken]!.items.length;
        taken += 1;
      }
      await this.flush(this.pending.splice(0, taken));
    }
    this.draining = false;
  }

  private async flush(group: ReadonlyArray<Submission<I, O>>): Promise<void> {
    try {
      const outputs = await this.write(group.flatMap((submission) => submission.items));
      let offset = 0;
      for (const submission of group) {
        submission.resolve(outputs.slice(offset, offset + submission.items.length));
        offset += submission.items.length;
      }
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      for (const submission of group) {
        try {
          submission.resolve(await this.write(submission.items));
        } catch (own) {
          submission.reject(own);
        }
      }
    }
  }
}
