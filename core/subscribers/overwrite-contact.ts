import { blankToNull, earlier, type ContactFields } from "./contact-fields.js";
import type { Subscriber } from "./model.js";

/**
 * The overwrite rule (duplicate strategy `overwrite`): the contact becomes what is given; fields
 * not given are cleared and the attributes replaced, but the external ID is kept unless a new
 * one is given, the signup is only ever backdated, and the status never changes.
 */
export function overwriteContact(contact: Subscriber, input: ContactFields, now: Date): Subscriber {
  return {
    ...contact,
    externalId: input.externalId ?? contact.externalId,
    firstName: blankToNull(input.firstName),
    lastName: blankToNull(input.lastName),
    phone: blankToNull(input.phone),
    timezone: input.timezone ?? null,
    customAttributes: input.customAttributes ?? {},
    createdAt: earlier(input.createdAt, contact.createdAt),
    updatedAt: now,
  };
}
