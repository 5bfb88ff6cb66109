import type { RateBudget } from "./rate-budgets.js";
import type { FairAdmission } from "./fair-admission.js";
import type { RateDecision, RateLimiter } from "../ports/rate-limiter.js";

/** Enough for every key of a busy server; past it, the ended refusals go, or, failing that, all. */
const MAX_REMEMBERED_KEYS = 100_000;

/** Whose credentials were refused: their company, and the key and budget the refusal's headers speak for. */
export interface RefusedKey {
  readonly companyId: string;
  readonly apiKeyId: string;
  readonly budget: RateBudget;
}

/** Why credentials are refused before their key is looked up, while it lasts. */
export type CompanyRefusal =
  { readonly reason: "ceiling"; readonly decision: RateDecision } | { readonly reason: "inFlight"; readonly key: RefusedKey; readonly max: number };

/**
 * The company of each key refused for its company's ceiling or for its places in flight, by a
 * digest of the credentials presented: while the company is still over (its ceiling's window has
 * not ended, or its places are still all taken), the next request with the same credentials is
 * refused before its key is looked up, so a company storming past its share costs the database
 * nothing. Nothing is admitted from here: credentials no longer refused are looked up as always.
 */
export class CompanyRefusals {
  private readonly keys = new Map<string, RefusedKey>();

  constructor(
    /** Where the refused key's budget is read for the headers of its refusal. */
    readonly limiter: RateLimiter,
    private readonly admission: FairAdmission,
  ) {}

  remember(credentials: string, key: RefusedKey): void {
    if (this.keys.size >= MAX_REMEMBERED_KEYS) {
      for (const [digest, known] of this.keys) if (!this.refusalOf(known)) this.keys.delete(digest);
      if (this.keys.size >= MAX_REMEMBERED_KEYS) this.keys.clear();
    }
    this.keys.set(credentials, key);
  }

  /** Whether any credentials are remembered: when none are, a request need not even be digested. */
  get isEmpty(): boolean {
    return this.keys.size === 0;
  }

  /** The refusal of the company these credentials belong to, while it lasts. */
  refusalFor(credentials: string): CompanyRefusal | undefined {
    const key = this.keys.get(credentials);
    if (!key) return undefined;
    const refused = this.refusalOf(key);
    if (!refused) this.keys.delete(credentials);
    return refused;
  }

  private refusalOf(key: RefusedKey): CompanyRefusal | undefined {
    const decision = this.limiter.refusal("company", key.companyId);
    if (decision) return { reason: "ceiling", decision };
    return this.admission.isFull(key.companyId) ? { reason: "inFlight", key, max: this.admission.max } : undefined;
  }
}
