import type { TaggedSubscriber } from "./model.js";

/** The subscriber record of the API (compat-reference, Subscribers). */
export interface SubscriberView {
  readonly id: string;
  readonly email: string;
  readonly externalId: string | null;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly phone: string | null;
  readonly smsStatus: string;
  readonly status: string;
  readonly emailProvider: string | null;
  readonly timezone: string | null;
  readonly tags: readonly string[];
  readonly customAttributes: Readonly<Record<string, unknown>>;
  readonly unsubscribedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const toSubscriberView = (s: TaggedSubscriber): SubscriberView => ({
  id: s.id,
  email: s.email,
  externalId: s.externalId,
  firstName: s.firstName,
  lastName: s.lastName,
  phone: s.phone,
  smsStatus: s.smsStatus,
  status: s.status,
  emailProvider: s.emailProvider,
  timezone: s.timezone,
  tags: s.tags,
  customAttributes: s.customAttributes,
  unsubscribedAt: s.unsubscribedAt?.toISOString() ?? null,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});
