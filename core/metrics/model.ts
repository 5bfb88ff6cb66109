/**
 * The send funnel of a metrics request and the figures derived from it. Every count is a
 * number of sends made in the window (one send counts once however many events it had).
 */

export const EMAIL_TYPES = ["campaign", "transactional", "sequence"] as const;
export type MetricsEmailType = (typeof EMAIL_TYPES)[number];

/** The raw counts one aggregate over the window's sends returns. */
export interface FunnelCounts {
  readonly sent: number;
  /** Sends with a delivery event. */
  readonly deliveryEvents: number;
  /** Sends with a delivery event, or with engagement that proves delivery (an open, a click, a reply...). */
  readonly delivered: number;
  readonly bounced: number;
  /** Bounced sends by the type of their latest bounce. */
  readonly permanentBounces: number;
  readonly transientBounces: number;
  /** Sends opened or clicked by anyone, and by people (machine engagement excluded). */
  readonly opened: number;
  readonly humanOpened: number;
  readonly clicked: number;
  readonly humanClicked: number;
  /** Sends with at least one machine (scanner, preview, prefetch) open, and click. */
  readonly machineOpened: number;
  readonly machineClicked: number;
  readonly replies: number;
  readonly complaints: number;
  readonly unsubscribed: number;
}

/** The funnel of no sends (a saved email never sent). */
export const NO_SENDS: FunnelCounts = {
  sent: 0,
  deliveryEvents: 0,
  delivered: 0,
  bounced: 0,
  permanentBounces: 0,
  transientBounces: 0,
  opened: 0,
  humanOpened: 0,
  clicked: 0,
  humanClicked: 0,
  machineOpened: 0,
  machineClicked: 0,
  replies: 0,
  complaints: 0,
  unsubscribed: 0,
};

export interface BounceSubtypeCount {
  readonly type: string;
  readonly subType: string;
  readonly count: number;
}

export interface LinkClicks {
  readonly url: string;
  /** Sends that clicked this link. */
  readonly clicks: number;
}

export interface Stats {
  readonly sent: number;
  readonly delivered: number;
  readonly bounced: number;
  readonly opened: number;
  readonly clicked: number;
  readonly replies: number;
  readonly complaints: number;
  readonly unsubscribed: number;
  readonly deliveryRate: number;
  readonly bounceRate: number;
  readonly openRate: number;
  readonly clickRate: number;
  readonly replyRate: number;
  readonly complaintRate: number;
  readonly unsubscribeRate: number;
  readonly rateDenominator: number;
  readonly rateDenominatorBasis: "delivered" | "sent";
}

/** A percentage with two decimals, never above 100; 0 over an empty denominator. */
export function rate(count: number, denominator: number): number {
  if (denominator <= 0) return 0;
  return Math.min(100, Math.round((count * 10_000) / denominator) / 100);
}

export interface StatsOptions {
  readonly includeMachineEngagement: boolean;
  /** Provider-filtered metrics report no replies (replies are not attributed to a provider). */
  readonly withoutReplies: boolean;
}

/**
 * Rates are over delivered sends, or over sent ones when the window has no delivery event at
 * all (a transport that reports no deliveries); delivered counts engaged sends too, so opened,
 * clicked and the rest never exceed it.
 */
export function toStats(counts: FunnelCounts, options: StatsOptions): Stats {
  const basis = counts.deliveryEvents > 0 ? "delivered" : "sent";
  const rateDenominator = basis === "delivered" ? counts.delivered : counts.sent;
  const opened = options.includeMachineEngagement ? counts.opened : counts.humanOpened;
  const clicked = options.includeMachineEngagement ? counts.clicked : counts.humanClicked;
  const replies = options.withoutReplies ? 0 : counts.replies;
  return {
    sent: counts.sent,
    delivered: counts.delivered,
    bounced: counts.bounced,
    opened,
    clicked,
    replies,
    complaints: counts.complaints,
    unsubscribed: counts.unsubscribed,
    deliveryRate: rate(counts.delivered, counts.sent),
    bounceRate: rate(counts.bounced, counts.sent),
    openRate: rate(opened, rateDenominator),
    clickRate: rate(clicked, rateDenominator),
    replyRate: rate(replies, rateDenominator),
    complaintRate: rate(counts.complaints, rateDenominator),
    unsubscribeRate: rate(counts.unsubscribed, rateDenominator),
    rateDenominator,
    rateDenominatorBasis: basis,
  };
}

export interface BounceBreakdown {
  readonly permanent: number;
  readonly transient: number;
  readonly undetermined: number;
  readonly subtypes: readonly BounceSubtypeCount[];
}

const BOUNCE_TYPE_NAMES: Readonly<Record<string, string>> = { permanent: "Permanent", transient: "Transient" };

/**
 * Each bounced send counts once, under the type of its latest bounce; a type that is missing
 * or unknown counts as Undetermined (so the three add up to `bounced`), a missing subtype too.
 */
export function toBounceBreakdown(counts: FunnelCounts, subtypes: readonly BounceSubtypeCount[]): BounceBreakdown {
  const merged = new Map<string, BounceSubtypeCount>();
  for (const entry of subtypes) {
    const type = BOUNCE_TYPE_NAMES[entry.type.toLowerCase()] ?? "Undetermined";
    const subType = entry.subType.trim() || "Undetermined";
    const key = `${type}\u0000${subType}`;
    merged.set(key, { type, subType, count: (merged.get(key)?.count ?? 0) + entry.count });
  }
  return {
    permanent: counts.permanentBounces,
    transient: counts.transientBounces,
    undetermined: counts.bounced - counts.permanentBounces - counts.transientBounces,
    subtypes: [...merged.values()].sort((a, b) => b.count - a.count || a.type.localeCompare(b.type) || a.subType.localeCompare(b.subType)),
  };
}

export interface EngagementBreakdown {
  readonly human: { readonly opens: number; readonly clicks: number };
  readonly machine: { readonly opens: number; readonly clicks: number };
}

/** Links by the share of clicking sends that clicked each (a send can click several links). */
export function toClickedLinks(links: readonly LinkClicks[], clicked: number) {
  return links.map((link) => ({ url: link.url, clicks: link.clicks, percentage: rate(link.clicks, clicked) }));
}
