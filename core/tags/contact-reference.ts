import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TaggedSubscriber } from "../subscribers/model.js";
import type { SubscriberRepository } from "../subscribers/ports.js";

/** How the single-contact tag routes name a contact: by email, else by externalId. */
export interface ContactReference {
  /** Validated and lower-cased. */
  readonly email?: string | undefined;
  readonly externalId?: string | undefined;
}

export const requireReference = (reference: ContactReference): Result<ContactReference> =>
  reference.email || reference.externalId ? ok(reference) : fail(badRequest("Provide email or externalId"));

/** The contact the reference names, matched the way SaveContact matches (email first). */
export async function findReferencedContact(
  subscribers: SubscriberRepository,
  companyId: string,
  reference: ContactReference,
): Promise<TaggedSubscriber | null> {
  const byEmail = reference.email ? await subscribers.findByEmail(companyId, reference.email) : null;
  if (byEmail) return byEmail;
  return reference.externalId ? subscribers.findByExternalId(companyId, reference.externalId) : null;
}
