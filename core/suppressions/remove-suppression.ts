import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { SuppressionRepository } from "./ports.js";

export interface RemovedSuppression {
  readonly email: string;
  readonly removed: boolean;
  /** The removed suppression came from a hard bounce. */
  readonly removedLocalBounce: boolean;
  /** Kept for compatibility: suppressions live in this service only, never at a provider. */
  readonly removedSesRegions: string[];
  readonly remainingSuppression: null;
}

/** Lets mail reach the address again. Removing an address that is not suppressed is not an error. */
export class RemoveSuppression {
  constructor(private readonly suppressions: SuppressionRepository) {}

  execute = async (actor: Actor, email: string): Promise<Result<RemovedSuppression>> => {
    const address = email.toLowerCase();
    const existing = await this.suppressions.find(actor.companyId, address);
    const removed = existing ? await this.suppressions.remove(actor.companyId, address) : false;
    return ok({
      email: address,
      removed,
      removedLocalBounce: removed && existing?.reason === "hard_bounce",
      removedSesRegions: [],
      remainingSuppression: null,
    });
  };
}
