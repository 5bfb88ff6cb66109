import * as t from "io-ts";
import { BooleanFromString, IsoDate, oneOf, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { MAILBOX_PROVIDERS, type MailboxProvider } from "./mailbox-provider.js";
import { EMAIL_TYPES, type MetricsEmailType } from "./model.js";
import { PERIODS, type PeriodName } from "./period.js";

/**
 * Query strings of the metrics routes. Types and enumerations are checked here (422); the
 * rules between fields (start with end, at most 90 days) are the use cases' (400).
 */

const PeriodCodec = oneOf<PeriodName>(PERIODS, "Period");
const EmailTypeCodec = oneOf<MetricsEmailType>(EMAIL_TYPES, "EmailType");
const MailboxProviderCodec = oneOf<MailboxProvider>(MAILBOX_PROVIDERS, "MailboxProvider");

const range = {
  period: optional(PeriodCodec),
  start: optional(IsoDate),
  end: optional(IsoDate),
  includeMachineEngagement: optional(BooleanFromString),
};

/** GET /metrics (alias /stats). */
export const AccountMetricsQuery = t.exact(
  t.partial({ ...range, emailType: optional(EmailTypeCodec), mailboxProvider: optional(MailboxProviderCodec) }),
  "AccountMetricsQuery",
);
export type AccountMetricsQuery = t.TypeOf<typeof AccountMetricsQuery>;

/** GET /metrics/transactional/{idOrSlug} (alias /transactional/{idOrSlug}/stats). */
export const TransactionalMetricsQuery = t.exact(t.partial(range), "TransactionalMetricsQuery");
export type TransactionalMetricsQuery = t.TypeOf<typeof TransactionalMetricsQuery>;

export const TransactionalMetricsPath = t.type({ idOrSlug: TrimmedNonEmpty }, "TransactionalMetricsPath");
