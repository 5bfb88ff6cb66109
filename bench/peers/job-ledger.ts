/**
 * What a queue under benchmark did with the jobs of one round: which ran, how often, and how
 * many completions it has recorded. Every side's handler reports here, so all sides are checked
 * the same way: each job enqueued ran exactly once, and nothing else ran.
 */
export class JobLedger {
  private readonly runs = new Map<string, number>();
  private readonly expected: ReadonlySet<string>;
  private completions = 0;
  private failure: Error | undefined;
  private settle: (() => void) | undefined;

  constructor(
    private readonly side: string,
    ids: readonly string[],
  ) {
    this.expected = new Set(ids);
    if (this.expected.size !== ids.length) throw new Error(`${side}: the queue handed out ${ids.length - this.expected.size} duplicate job ids`);
  }

  /** The handler ran job `id`. */
  ran(id: string): void {
    this.runs.set(id, (this.runs.get(id) ?? 0) + 1);
  }

  /** The queue recorded a job as done (durably, as far as that queue goes). */
  completed(): void {
    this.completions += 1;
    if (this.completions >= this.expected.size) this.settle?.();
  }

  /** A job failed or the worker reported an error: the round is void. */
  failed(error: unknown): void {
    this.failure ??= error instanceof Error ? error : new Error(String(error));
    this.settle?.();
  }

  get done(): number {
    return this.completions;
  }

  /** Resolves once every job is recorded done; rejects on a failure or when nothing moves for `stallMs`. */
  async whenAllCompleted(stallMs = 30_000): Promise<void> {
    let seen = -1;
    while (this.completions < this.expected.size && !this.failure) {
      if (this.completions === seen) throw new Error(`${this.side}: no job completed for ${stallMs / 1000} s (${seen} of ${this.expected.size} done)`);
      seen = this.completions;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, stallMs);
        this.settle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.settle = undefined;
    }
    if (this.failure) throw new Error(`${this.side}: ${this.failure.message}`, { cause: this.failure });
  }

  /** Throws unless every expected job ran exactly once and no other job ran. */
  verify(): void {
    const missing = [...this.expected].filter((id) => !this.runs.has(id));
    const twice = [...this.runs].filter(([, times]) => times > 1).map(([id]) => id);
    const strangers = [...this.runs.keys()].filter((id) => !this.expected.has(id));
    if (missing.length > 0 || twice.length > 0 || strangers.length > 0) {
      throw new Error(
        `${this.side}: ${missing.length} of ${this.expected.size} jobs never ran, ${twice.length} ran more than once, ${strangers.length} unknown jobs ran` +
          ` (e.g. ${[...missing, ...twice, ...strangers].slice(0, 3).join(", ")})`,
      );
    }
  }
}
