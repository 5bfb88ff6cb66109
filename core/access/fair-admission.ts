/** One admitted request: it waits for `turn`, then works, and calls `leave()` once it is done (or abandoned). */
export interface Admission {
  readonly turn: Promise<void>;
  readonly leave: () => void;
}

const NOW: Promise<void> = Promise.resolve();

interface Company {
  working: number;
  /** Admitted requests waiting for a place, oldest first. */
  readonly waiting: Array<() => void>;
}

/**
 * Admits each company's requests up to a ceiling (in flight: working or waiting), and lets at
 * most `places` requests work at once, companies taking turns: a freed place goes to the waiting
 * company with the fewest requests at work. One company with many requests queued cannot put
 * another's single request behind all of them; alone, it may use every place. It lives in one
 * process: with several servers, each enforces both numbers on its own.
 */
export class FairAdmission {
  private readonly companies = new Map<string, Company>();
  private working = 0;

  constructor(
    /** Requests of one company in flight at once. */
    readonly max: number,
    /** Requests worked on at once, all companies together. */
    readonly places: number,
  ) {}

  /** Whether the company has `max` requests in flight: its next one would be refused. */
  isFull(subject: string): boolean {
    const company = this.companies.get(subject);
    return company !== undefined && company.working + company.waiting.length >= this.max;
  }

  /** An admission, or undefined when the company already has `max` requests in flight. */
  tryEnter(subject: string): Admission | undefined {
    const company = this.companies.get(subject) ?? { working: 0, waiting: [] };
    if (company.working + company.waiting.length >= this.max) return undefined;
    this.companies.set(subject, company);
    let state: "waiting" | "working" | "gone" = "waiting";
    let start: () => void = () => undefined;
    const work = () => {
      state = "working";
      company.working += 1;
      this.working += 1;
    };
    let turn: Promise<void> = NOW;
    // Most requests find a place at once: they take it without a promise of their own.
    if (this.working < this.places && company.waiting.length === 0) work();
    else
      turn = new Promise<void>((resolve) => {
        start = () => {
          work();
          resolve();
        };
        company.waiting.push(start);
      });
    return {
      turn,
      leave: () => {
        if (state === "gone") return;
        if (state === "waiting") company.waiting.splice(company.waiting.indexOf(start), 1);
        else {
          company.working -= 1;
          this.working -= 1;
        }
        state = "gone";
        if (company.working === 0 && company.waiting.length === 0) this.companies.delete(subject);
        this.handOutPlaces();
      },
    };
  }

  private handOutPlaces(): void {
    while (this.working < this.places) {
      let next: Company | undefined;
      for (const company of this.companies.values()) if (company.waiting.length > 0 && (!next || company.working < next.working)) next = company;
      if (!next) return;
      next.waiting.shift()!();
    }
  }
}
