/**
 * Which rows a run takes when it reads in cursor order with a row cap. The reader is asked for
 * one row more than the cap: if it comes, more rows are waiting. Rows that share the cursor value
 * of that waiting row are left for the next run too, since the next run reads only rows with a
 * cursor greater than the one saved: taking half of a group of equal cursors would lose the rest.
 */

export interface CursorRow {
  /** The row's cursor value as text; null when the sync has no cursor column. */
  readonly cursor: string | null;
}

export interface WindowEnd<R> {
  /** The last rows to process. */
  readonly rows: R[];
  /** The cursor of the last row taken (null when no row was taken or there is no cursor). */
  readonly cursorTo: string | null;
  /** Rows were left for the next run. */
  readonly rowLimitReached: boolean;
  /** Rows read but left for the next run (equal cursors at the cap). */
  readonly deferred: number;
}

export class CursorWindow<R extends CursorRow> {
  private taken = 0;
  private held: R[] = [];
  private waiting: R | null = null;
  private lastCursor: string | null = null;

  constructor(
    private readonly maxRows: number,
    /** Whether rows come in cursor order (the sync has a cursor column). */
    private readonly ordered: boolean,
  ) {}

  /** Takes a batch of rows in read order; returns the rows that can be processed now. */
  push(batch: readonly R[]): R[] {
    const ready: R[] = [];
    for (const row of batch) {
      if (this.waiting) break;
      if (this.taken === this.maxRows) {
        this.waiting = row;
        break;
      }
      this.taken += 1;
      if (!this.ordered) {
        ready.push(row);
        continue;
      }
      // Rows of one cursor value are held until a greater value shows the group is complete.
      if (this.held.length > 0 && this.held[0]!.cursor !== row.cursor) this.release(ready);
      this.held.push(row);
    }
    return ready;
  }

  /** Whether the cap is reached (reading can stop). */
  get full(): boolean {
    return this.waiting !== null;
  }

  /** The end of the read: the rows still held, unless they share the waiting row's cursor. */
  end(): WindowEnd<R> {
    const rows: R[] = [];
    let deferred = 0;
    if (this.waiting && this.held.length > 0 && this.held[0]!.cursor === this.waiting.cursor) deferred = this.held.length;
    else this.release(rows);
    this.held = [];
    return { rows, cursorTo: this.lastCursor, rowLimitReached: this.waiting !== null, deferred };
  }

  private release(into: R[]): void {
    for (const row of this.held) into.push(row);
    this.lastCursor = this.held.at(-1)?.cursor ?? this.lastCursor;
    this.held = [];
  }
}
