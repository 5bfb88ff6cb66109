import { blankToNull, earlier, type ContactFields } from "./contact-fields.js";
import type { Subscriber } from "./model.js";

/**
 * The merge rule (duplicate strategy `merge`): each field given wins, a blank name or phone
 * clears it, a field not given is kept, the external ID is set but never cleared; custom attributes are merged key by key (a given key
 * replaces that key's value whole, other keys stay); an earlier createdAt backdates the signup;
 * the status never changes (nothing reactivates an unsubscribed contact).
 */
export function mergeContact(contact: Subscriber, input: ContactFields, now: Date): Subscriber {
  return {
    ...contact,
    externalId: input.externalId ?? contact.externalId,
    firstName: input.firstName === undefined ? contact.firstName : blankToNull(input.firstName),
    lastName: input.lastName === undefined ? contact.lastName : blankToNull(input.lastName),
    phone: input.phone === undefined ? contact.phone : blankToNull(input.phone),
    timezone: input.timezone === undefined ? contact.timezone : input.timezone,
    customAttributes: input.customAttributes ? { ...contact.customAttributes, ...input.customAttributes } : contact.customAttributes,
    createdAt: earlier(input.createdAt, contact.createdAt),
    updatedAt: now,
  };
}
