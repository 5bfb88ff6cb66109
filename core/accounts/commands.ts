import * as t from "io-ts";
import { boundedText, Email, IsoDate, oneOf, optional } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";
import { EventProperties } from "../events/commands.js";
import { CustomAttributes } from "../subscribers/commands.js";
import { ACCOUNT_ROLES, type AccountRole } from "./model.js";
import { RECIPIENT_OPTIONS } from "./recipients.js";
import { SUGGESTION_SOURCES, type SuggestionSource } from "./suggestion.js";

export const AccountRoleCodec = oneOf<AccountRole>(ACCOUNT_ROLES, "AccountRole");
export const SuggestionSourceCodec = oneOf<SuggestionSource>(SUGGESTION_SOURCES, "SuggestionSource");

export const ExternalId = boundedText(255);
const AccountName = boundedText(255);
/** A domain, trimmed and lower-cased (a leading `@` is dropped). */
const Domain = withSchema(
  new t.Type<string, string, unknown>(
    "Domain",
    (u): u is string => typeof u === "string",
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      const domain = u.trim().replace(/^@/, "").toLowerCase();
      if (domain.length === 0) return t.failure(u, c, "must not be blank");
      if (domain.length > 255) return t.failure(u, c, "must be at most 255 characters");
      return t.success(domain);
    },
    t.identity,
  ),
  { type: "string", maxLength: 255 },
);

/** POST /api/v1/accounts: creates the account or updates the fields given (attributes are merged key by key). */
export const UpsertAccountCommand = t.exact(
  t.intersection([
    t.type({ externalId: ExternalId }),
    t.partial({
      name: optional(t.union([AccountName, t.null])),
      domain: optional(t.union([Domain, t.null])),
      attributes: optional(CustomAttributes),
    }),
  ]),
  "UpsertAccountCommand",
);
export type UpsertAccountCommand = t.TypeOf<typeof UpsertAccountCommand>;

/** POST /api/v1/accounts/{externalId}/members: a contact by email (created when new) or by ID. */
export const AddAccountMemberCommand = t.exact(
  t.partial({
    email: optional(Email),
    subscriberId: optional(boundedText(255)),
    role: optional(AccountRoleCodec),
  }),
  "AddAccountMemberCommand",
);
export type AddAccountMemberCommand = t.TypeOf<typeof AddAccountMemberCommand>;

/** Any value: an unknown `recipients` is a 400 of its own (spec), not a type error. */
const Recipients = withSchema(new t.Type<unknown, unknown, unknown>("Recipients", (_u): _u is unknown => true, t.success, t.identity), {
  type: "string",
  enum: [...RECIPIENT_OPTIONS],
  default: "owners",
});

/** POST /api/v1/accounts/{externalId}/events. */
export const RecordAccountEventCommand = t.exact(
  t.intersection([
    t.type({ event: boundedText(200) }),
    t.partial({
      properties: optional(EventProperties),
      recipients: Recipients,
      eventId: optional(boundedText(255)),
      occurredAt: optional(IsoDate),
    }),
  ]),
  "RecordAccountEventCommand",
);
export type RecordAccountEventCommand = t.TypeOf<typeof RecordAccountEventCommand>;

/** POST /api/v1/account-suggestions/organization-ids. A blank propertyKey is a 400 of its own (spec). */
export const SuggestOrganizationIdsCommand = t.exact(
  t.intersection([
    t.type({ propertyKey: t.string }),
    t.partial({
      source: optional(SuggestionSourceCodec),
      nameKey: optional(t.union([t.string, t.null])),
    }),
  ]),
  "SuggestOrganizationIdsCommand",
);
export type SuggestOrganizationIdsCommand = t.TypeOf<typeof SuggestOrganizationIdsCommand>;
