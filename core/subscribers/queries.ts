import type { ActivityPosition } from "./activity-cursor.js";
import type { SegmentDefinition } from "../segments/ports.js";
import type { AttributeOperator } from "./commands.js";
import type { SubscriberStatus, TaggedSubscriber } from "./model.js";
import { token } from "../shared/token.js";

/** How the text filters match: a full email exactly, anything else as a substring. */
export type TextSearch =
  | { readonly kind: "exactEmail"; readonly email: string }
  /** Lower-cased; over email, externalId, names and tag names. */
  | { readonly kind: "anywhere"; readonly text: string }
  /** Lower-cased; over the email only (the legacy `email` filter). */
  | { readonly kind: "emailContains"; readonly text: string };

export interface AttributeFilter {
  readonly name: string;
  readonly operator: AttributeOperator;
  /** The text after `name:`; null for `is_not_empty` given without one. */
  readonly value: string | null;
}

/** Which contacts of one company a listing selects. Every filter given must hold. */
export interface SubscriberCriteria {
  readonly companyId: string;
  readonly search: readonly TextSearch[];
  /** Normalised tag names; the contact must have all of them. */
  readonly tags: readonly string[];
  /** A list the contact is a current member of (not unsubscribed from it). */
  readonly listId: string | null;
  readonly segment: SegmentDefinition | null;
  /** null = every status. */
  readonly status: SubscriberStatus | null;
  readonly unsubscribedAfter: Date | null;
  readonly unsubscribedBefore: Date | null;
  readonly attribute: AttributeFilter | null;
}

/** Newest first (created, then ID), or by ID ascending (attribute searches). */
export type SubscriberOrder = "newest" | "idAscending";

/** Where a page starts: after the contact at a position (cursor), or after skipping rows (page). */
export type PagePosition = { readonly createdAt: Date; readonly id: string };

export interface PageRequest {
  readonly order: SubscriberOrder;
  readonly limit: number;
  /** Rows to skip (page mode). */
  readonly offset: number;
  /** The last contact of the previous page (cursor mode). */
  readonly after: PagePosition | null;
}

export interface ListMembership {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly isPrivate: boolean;
  readonly subscribedAt: Date;
  readonly unsubscribedAt: Date | null;
}

/** A custom event of the contact, as the detail's activity shows it. */
export interface ContactActivity {
  readonly id: string;
  readonly name: string;
  readonly occurredAt: Date;
  readonly properties: Readonly<Record<string, unknown>>;
}

/** Reads over a company's contacts beyond single lookups: listings, memberships, activity. */
export interface SubscriberQueries {
  /** At most `page.limit` contacts matching, in the page's order, with their tags. */
  find(criteria: SubscriberCriteria, page: PageRequest): Promise<TaggedSubscriber[]>;
  count(criteria: SubscriberCriteria): Promise<number>;
  /** The company's list with this ID, or else with this name; null when neither exists. */
  findListId(companyId: string, reference: { readonly id?: string; readonly name?: string }): Promise<string | null>;
  /** Every list the contact joined (left ones too), oldest membership first. */
  memberships(companyId: string, subscriberId: string): Promise<ListMembership[]>;
  /** The contact's latest custom events, newest first (then by ID); with `before`, only those before it. */
  recentEvents(companyId: string, subscriberId: string, limit: number, before: ActivityPosition | null): Promise<ContactActivity[]>;
  /** Marks every current list membership of the contact as left at `at` (global unsubscribe). */
  leaveAllLists(companyId: string, subscriberId: string, at: Date): Promise<void>;
}
export const SubscriberQueries = token<SubscriberQueries>("lifecycle.SubscriberQueries");
