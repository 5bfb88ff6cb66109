import type { MailboxProvider } from "./mailbox-provider.js";
import type { BounceSubtypeCount, FunnelCounts, LinkClicks, MetricsEmailType } from "./model.js";
import type { MetricsWindow } from "./period.js";
import { token } from "../shared/token.js";

/** Which sends a metrics request covers: made in the window, never test sends. */
export interface SendSelection {
  readonly companyId: string;
  readonly window: MetricsWindow;
  readonly emailType?: MetricsEmailType | undefined;
  readonly mailboxProvider?: MailboxProvider | undefined;
  readonly transactionalEmailId?: string | undefined;
  readonly campaignId?: string | undefined;
}

export interface TransactionalIdentity {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
}

/** Aggregates computed by the database over the selected sends and their events. */
export interface MetricsQueries {
  funnel(selection: SendSelection): Promise<FunnelCounts>;
  /**
   * The funnel of each saved transactional email's selected sends, all in one grouped query (a
   * list of emails costs one query, not one per email); an email without sends is absent.
   */
  funnelsByTransactional(selection: SendSelection, transactionalEmailIds: readonly string[]): Promise<ReadonlyMap<string, FunnelCounts>>;
  /** Bounced sends by the type and subtype of their latest bounce, as stored. */
  bounceSubtypes(selection: SendSelection): Promise<BounceSubtypeCount[]>;
  /** The most clicked links, by clicking sends, most first. */
  clickedLinks(selection: SendSelection, options: { includeMachineEngagement: boolean; limit: number }): Promise<LinkClicks[]>;
  /** Every stored contact, and the active ones (whatever the window). */
  subscriberCounts(companyId: string): Promise<{ total: number; active: number }>;
  /** A saved transactional email that is not deleted, by ID or slug. */
  findTransactional(companyId: string, idOrSlug: string): Promise<TransactionalIdentity | null>;
}
export const MetricsQueries = token<MetricsQueries>("lifecycle.MetricsQueries");
