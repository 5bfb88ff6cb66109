import * as t from "io-ts";
import { boundedText, Email, optional, TrimmedNonEmpty, required } from "../shared/codecs.js";
import { toJsonSchema, withSchema } from "../shared/json-schema.js";
import { DuplicateStrategyCodec, OptInModeCodec } from "../subscribers/commands.js";
import { MAX_LIST_DESCRIPTION_LENGTH, MAX_LIST_NAME_LENGTH, MAX_MEMBERSHIP_EMAILS } from "./model.js";

/** Inputs of the list routes (compat-reference §8); every type and size is checked here (422). */

const ListName = boundedText(MAX_LIST_NAME_LENGTH);

/** Trimmed; a blank description is no description (null). */
const Description = withSchema(
  new t.Type<string | null, string | null, unknown>(
    `Description(0..${MAX_LIST_DESCRIPTION_LENGTH})`,
    (u): u is string | null => u === null || (typeof u === "string" && u.length <= MAX_LIST_DESCRIPTION_LENGTH),
    (u, c) => {
      if (u === null) return t.success(null);
      if (typeof u !== "string") return t.failure(u, c, "must be a string or null");
      const trimmed = u.trim();
      if (trimmed.length > MAX_LIST_DESCRIPTION_LENGTH) return t.failure(u, c, `must be at most ${MAX_LIST_DESCRIPTION_LENGTH} characters`);
      return t.success(trimmed || null);
    },
    t.identity,
  ),
  { type: ["string", "null"], maxLength: MAX_LIST_DESCRIPTION_LENGTH },
);

/** POST /lists. A `companyId` the client echoes in the body is dropped: the key names the company. */
export const CreateListCommand = t.exact(
  t.intersection([
    t.type({ name: required(ListName) }),
    t.partial({ description: optional(Description), isPrivate: optional(t.boolean), allowMemberUnsubscribe: optional(t.boolean) }),
  ]),
  "CreateListCommand",
);
export type CreateListCommand = t.TypeOf<typeof CreateListCommand>;

/** PATCH /lists/{listId}: any of the fields. */
export const UpdateListCommand = t.exact(
  t.partial({ name: optional(ListName), description: optional(Description), isPrivate: optional(t.boolean), allowMemberUnsubscribe: optional(t.boolean) }),
  "UpdateListCommand",
);
export type UpdateListCommand = t.TypeOf<typeof UpdateListCommand>;

export const ListPath = t.type({ listId: TrimmedNonEmpty }, "ListPath");

/** 1 to 500 items of `item`. */
const emailBatch = <A>(item: t.Type<A, string, unknown>) =>
  withSchema(
    new t.Type<A[], string[], unknown>(
      `Emails(1..${MAX_MEMBERSHIP_EMAILS})`,
      (u): u is A[] => Array.isArray(u) && u.length > 0 && u.length <= MAX_MEMBERSHIP_EMAILS && u.every(item.is),
      (u, c) => {
        if (!Array.isArray(u)) return t.failure(u, c, "must be an array of email addresses");
        if (u.length === 0) return t.failure(u, c, "must hold at least one email address");
        if (u.length > MAX_MEMBERSHIP_EMAILS)
          return t.failure(u, c, `must hold at most ${MAX_MEMBERSHIP_EMAILS} email addresses per request (got ${u.length})`);
        return t.array(item).validate(u, c);
      },
      (values) => values.map((value) => item.encode(value)),
    ),
    { type: "array", items: toJsonSchema(item), minItems: 1, maxItems: MAX_MEMBERSHIP_EMAILS },
  );

/**
 * POST /lists/{listId}/subscribers. Unknown emails become contacts. `duplicateStrategy` is
 * accepted for the official client but changes nothing: the request carries only emails, so an
 * existing contact is matched and never rewritten (merge would add nothing, overwrite would only
 * erase its fields). `enrollInSequences` (default false) starts the joining contacts' sequences.
 */
export const AddListMembersCommand = t.exact(
  t.intersection([
    t.type({ emails: required(emailBatch(Email)) }),
    t.partial({ duplicateStrategy: optional(DuplicateStrategyCodec), enrollInSequences: optional(t.boolean), optInMode: optional(OptInModeCodec) }),
  ]),
  "AddListMembersCommand",
);
export type AddListMembersCommand = t.TypeOf<typeof AddListMembersCommand>;

/** An email to remove: any text; one that is no address names no contact and is reported in `notFound`. */
const EmailToRemove = withSchema(
  new t.Type<string, string, unknown>(
    "EmailToRemove",
    (u): u is string => typeof u === "string",
    (u, c) => (typeof u === "string" ? t.success(u.trim().toLowerCase()) : t.failure(u, c, "must be a string")),
    t.identity,
  ),
  { type: "string" },
);

/** POST /lists/{listId}/subscribers/remove. */
export const RemoveListMembersCommand = t.exact(t.type({ emails: required(emailBatch(EmailToRemove)) }), "RemoveListMembersCommand");
export type RemoveListMembersCommand = t.TypeOf<typeof RemoveListMembersCommand>;
