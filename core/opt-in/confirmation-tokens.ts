import type { TokenSigner } from "../ports/token-signer.js";
import { CONFIRM_LINK_TTL_MS } from "./model.js";

/** Its own purpose, so no tracking or unsubscribe token can ever confirm a contact. */
const CONFIRM = "opt_in.confirm";

/** The contact a confirmation link names, with its company: a link confirms only that contact of that company. */
export interface ConfirmationTarget {
  readonly companyId: string;
  readonly subscriberId: string;
}

/** Signed confirmation tokens that expire CONFIRM_LINK_TTL_MS after the email. */
export class ConfirmationTokens {
  constructor(private readonly signer: TokenSigner) {}

  sign(target: ConfirmationTarget, now: Date): string {
    return this.signer.sign(CONFIRM, { c: target.companyId, s: target.subscriberId }, new Date(now.getTime() + CONFIRM_LINK_TTL_MS));
  }

  /** Null for a token this server did not sign for confirmation, or signed too long ago. */
  read(token: string, now: Date): ConfirmationTarget | null {
    const payload = this.signer.verify(CONFIRM, token, now);
    const companyId = payload?.c;
    const subscriberId = payload?.s;
    return typeof companyId === "string" && typeof subscriberId === "string" && companyId !== "" && subscriberId !== "" ? { companyId, subscriberId } : null;
  }
}
