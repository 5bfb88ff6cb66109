import { blankToNull, earlier, type ContactFields } from "./contact-fields.js";
import { emailProviderOf, type Subscriber } from "./model.js";

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
