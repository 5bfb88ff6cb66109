import type { RateDecision, RateLimiter } from "../ports/rate-limiter.js";

/** Enough for every key of a busy server; past it, the ended refusals go, or, failing that, all. */
const MAX_REMEMBERED_KEYS = 100_000;

/**
 * The company of each key refused for its company's ceiling, until that refusal ends, by a
 * digest of the credentials presented: the next request with the same credentials can be refused
 * before its key is looked up, so a company storming past its ceiling costs the database nothing.
 * Nothing is admitted from here: credentials no longer refused are looked up as always.
 */
export class CompanyRefusals {
  private readonly companies = new Map<string, string>();

  constructor(private readonly limiter: RateLimiter) {}

  remember(credentials: string, companyId: string): void {
    if (this.companies.size >= MAX_REMEMBERED_KEYS) {
      for (const [key, company] of this.companies) if (!this.limiter.refusal("company", company)) this.companies.delete(key);
      if (this.companies.size >= MAX_REMEMBERED_KEYS) this.companies.clear();
    }
    this.companies.set(credentials, companyId);
  }

  /** Whether any credentials are remembered: when none are, a request need not even be digested. */
  get isEmpty(): boolean {
    return this.companies.size === 0;
  }

  /** The refusal of the company these credentials belong to, while it lasts. */
  refusalFor(credentials: string): RateDecision | undefined {
    const companyId = this.companies.get(credentials);
    if (!companyId) return undefined;
    const refused = this.limiter.refusal("company", companyId);
    if (!refused) this.companies.delete(credentials);
    return refused;
  }
}
