import * as t from "io-ts";
import { EMAIL_TYPES, type EmailType } from "../delivery/model.js";
import { IntegerFromString, optional } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";
import { EMAIL_SEND_SORT_FIELDS, SEARCHABLE_BOUNCE_TYPES, type EmailSendSortField, type SearchableBounceType } from "./email-send-search.js";
import { EMAIL_SEND_STATUSES, type EmailSendStatus } from "./status.js";

const keys = <K extends string>(values: readonly K[], name: string) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<K, null>, name);

const integerBetween = (min: number, max: number) =>
  withSchema(
    new t.Type<number, string, unknown>(
      `Integer(${min}..${max})`,
      (u): u is number => Number.isInteger(u) && (u as number) >= min && (u as number) <= max,
      (u, c) => {
        const parsed = IntegerFromString.validate(u, c);
        if (parsed._tag === "Left") return parsed;
        return parsed.right >= min && parsed.right <= max ? t.success(parsed.right) : t.failure(u, c, `must be between ${min} and ${max}`);
      },
      String,
    ),
    { type: "integer", minimum: min, maximum: max },
  );

/** How far back the search reaches: sends stay searchable for 14 days. */
export const EMAIL_SEND_RETENTION_DAYS = 14;
export const DEFAULT_EMAIL_SEND_PAGE_SIZE = 20;

/** GET /email-sends. */
export const ListEmailSendsQuery = t.exact(
  t.partial({
    search: optional(t.string),
    subject: optional(t.string),
    recipient: optional(t.string),
    status: optional(keys<EmailSendStatus>(EMAIL_SEND_STATUSES, "EmailSendStatus")),
    emailType: optional(keys<EmailType>(EMAIL_TYPES, "EmailType")),
    bounceType: optional(keys<SearchableBounceType>(SEARCHABLE_BOUNCE_TYPES, "BounceType")),
    campaignId: optional(t.string),
    transactionalEmailId: optional(t.string),
    automationId: optional(t.string),
    automationNodeId: optional(t.string),
    days: optional(integerBetween(1, EMAIL_SEND_RETENTION_DAYS)),
    page: optional(integerBetween(1, 1_000_000)),
    limit: optional(integerBetween(1, 100)),
    sortField: optional(keys<EmailSendSortField>(EMAIL_SEND_SORT_FIELDS, "EmailSendSortField")),
    sortOrder: optional(keys(["asc", "desc"], "SortOrder")),
  }),
  "ListEmailSendsQuery",
);
export type ListEmailSendsQuery = t.TypeOf<typeof ListEmailSendsQuery>;

/** `/email-sends/{emailSendId}`. */
export const EmailSendIdPath = t.type({ emailSendId: t.string }, "EmailSendIdPath");
export type EmailSendIdPath = t.TypeOf<typeof EmailSendIdPath>;
