import { emailProviderOf, type Attributes, type Subscriber, type SubscriberStatus } from "./model.js";

/** The fields of a contact as callers give them: only what is given is applied. */
export interface ContactFields {
  readonly externalId?: string | null | undefined;
  readonly firstName?: string | null | undefined;
  readonly lastName?: string | null | undefined;
  readonly phone?: string | null | undefined;
  readonly timezone?: string | null | undefined;
  /** Applies on creation only. */
  readonly status?: SubscriberStatus | undefined;
  readonly customAttributes?: Attributes | undefined;
  /** Backdates the signup; only ever earlier than now. */
  readonly createdAt?: Date | undefined;
}

const blankToNull = (value: string | null | undefined): string | null => (value === undefined || value === null || value === "" ? null : value);
const earlier = (given: Date | undefined, current: Date): Date => (given && given < current ? given : current);

/** A new contact from what is given. One create request and one import row build it alike. */
export function newContact(companyId: string, id: string, email: string, input: ContactFields, now: Date): Subscriber {
  const status = input.status ?? "active";
  return {
    id,
    companyId,
    email,
    externalId: input.externalId ?? null,
    firstName: blankToNull(input.firstName),
    lastName: blankToNull(input.lastName),
    phone: blankToNull(input.phone),
    smsStatus: "not_subscribed",
    status,
    emailProvider: emailProviderOf(email),
    timezone: input.timezone ?? null,
    customAttributes: input.customAttributes ?? {},
    unsubscribedAt: status === "unsubscribed" ? now : null,
    createdAt: earlier(input.createdAt, now),
    updatedAt: now,
  };
}

/** `merge`: given fields win; attributes are merged key by key; the status never changes. */
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

/** `overwrite`: the contact becomes what is given; fields not given are cleared, attributes replaced. */
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
