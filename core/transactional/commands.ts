import * as t from "io-ts";
import { BooleanFromString, boundedText, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { EmailBlocks } from "../emails/blocks.js";
import { ContentHtml, ContentName, ContentPreviewText, ContentSubject } from "../emails/commands.js";
import { MAX_SLUG } from "./model.js";

/** Inputs of the saved transactional email routes (compat-reference §13). */

const Slug = boundedText(MAX_SLUG);

export const TransactionalPath = t.type({ idOrSlug: TrimmedNonEmpty }, "TransactionalPath");

/** GET /transactional. */
export const ListTransactionalQuery = t.exact(
  t.partial({
    search: optional(t.string),
    status: optional(t.keyof({ all: null, active: null, disabled: null }, "TransactionalStatus")),
    includeMachineEngagement: optional(BooleanFromString),
    sort: optional(t.keyof({ date: null, sends: null, opens: null, "open-rate": null, clicks: null, ctr: null }, "TransactionalSort")),
    order: optional(t.keyof({ asc: null, desc: null }, "SortOrder")),
  }),
  "ListTransactionalQuery",
);
export type ListTransactionalQuery = t.TypeOf<typeof ListTransactionalQuery>;

/** POST /transactional: name, subject, exactly one of html and blocks; slug from the name unless given. */
export const CreateTransactionalCommand = t.exact(
  t.intersection([
    t.type({ name: required(ContentName) }),
    t.partial({
      slug: optional(Slug),
      subject: optional(ContentSubject),
      previewText: optional(ContentPreviewText),
      html: optional(ContentHtml),
      blocks: optional(EmailBlocks),
      enabled: optional(t.boolean),
      prompt: t.unknown,
    }),
  ]),
  "CreateTransactionalCommand",
);
export type CreateTransactionalCommand = t.TypeOf<typeof CreateTransactionalCommand>;

/** PATCH /transactional/{idOrSlug}: at least one field. */
export const UpdateTransactionalCommand = t.exact(
  t.partial({
    name: optional(ContentName),
    enabled: optional(t.boolean),
    subject: optional(ContentSubject),
    previewText: optional(ContentPreviewText),
    html: optional(ContentHtml),
    blocks: optional(EmailBlocks),
  }),
  "UpdateTransactionalCommand",
);
export type UpdateTransactionalCommand = t.TypeOf<typeof UpdateTransactionalCommand>;
