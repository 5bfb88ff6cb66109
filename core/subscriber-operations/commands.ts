import * as t from "io-ts";
import { FilterGroupCodec, FilterLeafCodec, JoinOperatorCodec } from "../segments/commands.js";
import { boundedText, optional, TrimmedNonEmpty } from "../shared/codecs.js";

/**
 * Inputs of bulk tagging and subscriber operations (compat-reference §4 "Bulk tags" and
 * "Operations"). Counts (at least one tag, at most 500 contacts...) are rules checked by the use
 * cases (400); these codecs check types (422).
 */

/** Emails stay plain strings here: an invalid one is reported as a failure of that contact, not of the request. */
const identifiers = {
  emails: optional(t.array(t.string)),
  externalIds: optional(t.array(TrimmedNonEmpty)),
  subscriberIds: optional(t.array(TrimmedNonEmpty)),
};

/** POST /subscribers/bulk/tags/add */
export const BulkAddTagsCommand = t.exact(
  t.intersection([t.type({ tags: t.array(t.string) }), t.partial({ ...identifiers, triggerAutomations: optional(t.boolean) })]),
  "BulkAddTagsCommand",
);
export type BulkAddTagsCommand = t.TypeOf<typeof BulkAddTagsCommand>;

/** POST /subscribers/bulk/tags/remove */
export const BulkRemoveTagsCommand = t.exact(t.intersection([t.type({ tags: t.array(t.string) }), t.partial(identifiers)]), "BulkRemoveTagsCommand");
export type BulkRemoveTagsCommand = t.TypeOf<typeof BulkRemoveTagsCommand>;

/** Which contacts an operation works on; omitted (or null) = every contact of the company. */
export const AudienceInput = t.exact(
  t.partial({
    subscriberIds: optional(t.array(TrimmedNonEmpty)),
    filters: optional(t.array(FilterLeafCodec)),
    filterJoinOperator: optional(JoinOperatorCodec),
    root: optional(FilterGroupCodec),
    activeOnly: optional(t.boolean),
    search: optional(t.union([t.string, t.null])),
    listId: optional(t.union([TrimmedNonEmpty, t.null])),
  }),
  "AudienceInput",
);
export type AudienceInput = t.TypeOf<typeof AudienceInput>;

/** POST /subscribers/operations */
export const StartOperationCommand = t.exact(
  t.intersection([
    t.type({ kind: t.keyof({ add_tags: null }, "OperationKind"), requestKey: boundedText(255), tags: t.array(t.string) }),
    t.partial({ triggerAutomations: optional(t.boolean), audience: optional(t.union([AudienceInput, t.null])) }),
  ]),
  "StartOperationCommand",
);
export type StartOperationCommand = t.TypeOf<typeof StartOperationCommand>;
