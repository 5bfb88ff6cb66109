/**
 * Counts the requests of each company being worked on, and admits one more only below the
 * ceiling. It lives in one process: with several servers, each enforces the ceiling on its own.
 */
export class InFlightGate {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly max: number) {}

  /** True (and counted) when the company may start one more request; leave() once it is done. */
  tryEnter(subject: string): boolean {
    const current = this.inFlight.get(subject) ?? 0;
    if (current >= this.max) return false;
    this.inFlight.set(subject, current + 1);
    return true;
  }

  leave(subject: string): void {
    const current = this.inFlight.get(subject) ?? 0;
    if (current <= 1) this.inFlight.delete(subject);
    else this.inFlight.set(subject, current - 1);
  }
}
