import * as t from "io-ts";
import { arrayOf } from "../emails/blocks.js";
import { ContentHtml, ContentPreviewText, ContentSubject, SendLocale } from "../emails/commands.js";
import { boundedText, Email, optional } from "../shared/codecs.js";
import { headerText } from "../shared/header-text.js";
import { withSchema } from "../shared/json-schema.js";

/** POST /transactional/send (compat-reference §13). Cross-field rules are the use case's (400). */

export const MAX_RECIPIENTS = 50;
export const MAX_ATTACHMENTS = 10;

/** One address or a list of up to 50. */
const Recipients = t.union([Email, arrayOf(Email, 1, MAX_RECIPIENTS, "addresses")]);

/** Merge-tag values: any JSON object (nested objects and arrays allowed). */
export const Variables = withSchema(t.UnknownRecord, { type: "object", additionalProperties: true });

const Attachment = t.exact(
  t.intersection([
    t.type({ filename: headerText(255) }),
    t.partial({
      content: optional(t.string),
      path: optional(t.string),
      contentId: optional(headerText(255)),
      contentType: optional(headerText(255)),
    }),
  ]),
  "Attachment",
);

export const SendTransactionalCommand = t.exact(
  t.partial({
    to: Recipients,
    cc: optional(Recipients),
    bcc: optional(Recipients),
    slug: optional(boundedText(255)),
    /** An alias of slug (not the database ID). */
    templateId: optional(boundedText(255)),
    subject: optional(ContentSubject),
    body: optional(ContentHtml),
    /** An alias of body. */
    html: optional(ContentHtml),
    preview: optional(ContentPreviewText),
    variables: optional(Variables),
    subscriberExternalId: optional(boundedText(255)),
    emailType: optional(t.keyof({ transactional: null, marketing: null }, "SendEmailType")),
    from: optional(headerText(320 + 260)),
    replyTo: optional(headerText(320 + 260)),
    attachments: optional(arrayOf(Attachment, 0, MAX_ATTACHMENTS, "attachments")),
    /** The localized variant of a saved email to send (else the contact's `locale` attribute picks it). */
    locale: optional(SendLocale),
    trackingSettings: optional(t.exact(t.partial({ clickTracking: optional(t.boolean), openTracking: optional(t.boolean) }), "TrackingSettings")),
  }),
  "SendTransactionalCommand",
);
export type SendTransactionalCommand = t.TypeOf<typeof SendTransactionalCommand>;

const asList = (value: string | readonly string[] | undefined): string[] => (value === undefined ? [] : typeof value === "string" ? [value] : [...value]);

/** Every recipient once, lower-cased, in the order to > cc > bcc (compat: duplicates removed in that order). */
export function recipientsOf(command: SendTransactionalCommand): Array<{ email: string; role: "to" | "cc" | "bcc" }> {
  const seen = new Set<string>();
  const recipients: Array<{ email: string; role: "to" | "cc" | "bcc" }> = [];
  for (const role of ["to", "cc", "bcc"] as const) {
    for (const address of asList(command[role])) {
      const email = address.trim().toLowerCase();
      if (seen.has(email)) continue;
      seen.add(email);
      recipients.push({ email, role });
    }
  }
  return recipients;
}
