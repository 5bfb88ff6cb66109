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

/** What the campaign events log lists (compat-reference §16 `eventTypes`). */
export const CAMPAIGN_EVENT_TYPES = ["send", "delivery", "bounce", "complaint", "open", "click", "unsubscribe", "delivery_delay", "transport_failure"] as const;
export type CampaignEventType = (typeof CAMPAIGN_EVENT_TYPES)[number];

/** One stored event of a campaign's send. */
export interface CampaignEventRecord {
  readonly id: string;
  readonly emailSendId: string;
  readonly eventType: CampaignEventType;
  readonly eventTime: Date;
  readonly recipientEmail: string;
  readonly subscriberId: string | null;
  readonly url: string | null;
  readonly bounceType: string | null;
  readonly bounceSubType: string | null;
  readonly machine: boolean;
  /** The sequence step the send came from (null for campaigns). */
  readonly automationNodeId: string | null;
}

export interface CampaignEventSelection {
  readonly companyId: string;
  /** Whose sends: a campaign's, or a sequence's (`automationId`, optionally one of its steps). */
  readonly campaignId?: string | undefined;
  readonly automationId?: string | undefined;
  readonly automationNodeId?: string | undefined;
  /** Of the events' own times. */
  readonly window: MetricsWindow;
  readonly eventTypes: readonly CampaignEventType[];
  readonly includeMachineEngagement: boolean;
}

/** The funnel of one email: a campaign, or one email step of a sequence. */
export interface EmailFunnel {
  readonly emailType: "campaign" | "sequence";
  readonly campaignId: string | null;
  readonly sequenceId: string | null;
  readonly automationNodeId: string | null;
  readonly counts: FunnelCounts;
}

export interface EmailFunnelSelection {
  readonly companyId: string;
  readonly window: MetricsWindow;
  readonly emailType?: "campaign" | "sequence" | undefined;
  readonly campaignIds?: readonly string[] | undefined;
  readonly sequenceIds?: readonly string[] | undefined;
}

/** Per-email metrics: a campaign's event log and every email's funnel (test sends never count). */
export interface EmailMetricsQueries {
  /** Newest first. */
  campaignEvents(
    selection: CampaignEventSelection,
    page: { readonly offset: number; readonly limit: number },
  ): Promise<{ events: CampaignEventRecord[]; total: number }>;
  /** One grouped aggregate over the window's campaign and sequence sends; an email without sends is absent. */
  funnelsByEmail(selection: EmailFunnelSelection): Promise<EmailFunnel[]>;
  /**
   * Contacts the campaign's sends of the window went to (test sends aside) who recorded the event
   * `eventName` from their send's time to `windowHours` after it: a goal's conversions.
   */
  goalConversions(
    selection: { readonly companyId: string; readonly campaignId: string; readonly window: MetricsWindow },
    goal: { readonly eventName: string; readonly windowHours: number },
  ): Promise<number>;
  /**
   * For each contact goalConversions counts, the properties of its first goal event in its
   * window: what the conversion's value is read from.
   */
  goalEventProperties(
    selection: { readonly companyId: string; readonly campaignId: string; readonly window: MetricsWindow },
    goal: { readonly eventName: string; readonly windowHours: number },
  ): Promise<ReadonlyArray<Readonly<Record<string, unknown>>>>;
  /** The names of the company's campaigns among `campaignIds` (deleted and others' are absent). */
  campaignNames(companyId: string, campaignIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
}
export const EmailMetricsQueries = token<EmailMetricsQueries>("lifecycle.EmailMetricsQueries");
