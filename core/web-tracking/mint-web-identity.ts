import type { ResolveEventContact } from "../events/resolve-event-contact.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { DEFAULT_IDENTITY_TTL_HOURS, type MintWebIdentityCommand } from "./commands.js";
import type { IdentityTokens } from "./identity-tokens.js";
import { WEB_TRACKING_KEY_NOT_FOUND, type WebTrackingKey } from "./model.js";
import type { WebTrackingKeyRepository } from "./ports.js";
import type { WebIdentityView } from "./view.js";

const HOUR_MS = 60 * 60 * 1000;

/**
 * POST /web-tracking-identities (compat-reference §20): the company's backend vouches for a
 * signed-in visitor. The token is bound to the key and the address and expires; the contact is
 * created on first mint (asked to confirm when the company has double opt-in on, as any new
 * contact of an event is), so the visitor's events have someone to land on.
 */
export class MintWebIdentity {
  constructor(
    private readonly keys: WebTrackingKeyRepository,
    private readonly resolveContact: ResolveEventContact,
    private readonly tokens: IdentityTokens,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: MintWebIdentityCommand): Promise<Result<WebIdentityView>> => {
    if (input.publicKey === undefined && input.keyId === undefined) return fail(badRequest("Provide publicKey or keyId"));
    const key = await this.findKey(actor.companyId, input);
    if (!key || key.companyId !== actor.companyId) return fail(WEB_TRACKING_KEY_NOT_FOUND);
    if (!key.isActive) return fail(invalidState("Web tracking key is inactive: turn it on (isActive: true) before minting identity tokens for it"));
    const contact = await this.resolveContact.execute(actor.companyId, { email: input.email });
    if (contact._tag === "Left") return contact;
    const expiresAt = new Date(this.clock.now().getTime() + (input.ttlHours ?? DEFAULT_IDENTITY_TTL_HOURS) * HOUR_MS);
    return ok({
      identityToken: this.tokens.mint({ keyId: key.id, email: contact.right.email }, expiresAt),
      email: contact.right.email,
      keyId: key.id,
      publicKey: key.publicKey,
      subscriberId: contact.right.id,
      expiresAt: expiresAt.toISOString(),
    });
  };

  /** By keyId when given, else by publicKey; both given must name the same key. */
  private async findKey(companyId: string, input: MintWebIdentityCommand): Promise<WebTrackingKey | null> {
    const key = input.keyId !== undefined ? await this.keys.find(companyId, input.keyId) : await this.keys.findByPublicKey(input.publicKey!);
    if (key && input.publicKey !== undefined && key.publicKey !== input.publicKey) return null;
    return key;
  }
}
