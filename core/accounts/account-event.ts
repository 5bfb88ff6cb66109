import type { AccountRole } from "./model.js";
import type { RecipientOption } from "./recipients.js";

/**
 * An event on an account's timeline and its deliveries: one per recipient chosen when the event
 * was first recorded. A retry with the same eventId works through the same deliveries.
 */
export const DELIVERY_STATUSES = ["pending", "completed", "failed", "skipped"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Why a delivery was skipped: its contact was deleted before it could be delivered. */
export const CONTACT_DELETED = "contact_deleted";

export interface AccountEventDelivery {
  readonly subscriberId: string;
  /** The address when the event was recorded. */
  readonly email: string;
  readonly role: AccountRole;
  /** Order of delivery (owners first). */
  readonly position: number;
  readonly status: DeliveryStatus;
  /** The contact's custom event, once delivered. */
  readonly customEventId: string | null;
  readonly error: string | null;
}

export interface AccountEvent {
  readonly id: string;
  readonly companyId: string;
  readonly accountId: string;
  readonly name: string;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly occurredAt: Date;
  /** The caller's idempotency key, unique per account. */
  readonly eventId: string | null;
  readonly recipients: RecipientOption;
  readonly truncated: boolean;
  readonly createdAt: Date;
  readonly deliveries: readonly AccountEventDelivery[];
}

/** The eventId of the contact event a delivery records: the same on every retry, so it is stored once. */
export const deliveryEventId = (accountEventId: string, subscriberId: string): string => `${accountEventId}:${subscriberId}`;
