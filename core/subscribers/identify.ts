import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TaggedSubscriber } from "./model.js";
import type { SubscriberRepository } from "./ports.js";

/** How a route names one contact: its email (URL-decoded from the path) or its externalId. */
export type SubscriberRef = { readonly email: string } | { readonly externalId: string };

export const subscriberNotFound = () => notFound("Subscriber not found");

/** The company's contact named by `ref`; emails are matched lower-cased. Another company's contact is not found. */
export async function identifySubscriber(subscribers: SubscriberRepository, companyId: string, ref: SubscriberRef): Promise<Result<TaggedSubscriber>> {
  const found =
    "email" in ref ? await subscribers.findByEmail(companyId, ref.email.trim().toLowerCase()) : await subscribers.findByExternalId(companyId, ref.externalId);
  return found ? ok(found) : fail(subscriberNotFound());
}
