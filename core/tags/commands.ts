import * as t from "io-ts";
import { TagNameInput } from "./tag-name-input.js";
import { boundedText, Email, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { CustomAttributes } from "../subscribers/commands.js";
import { TAG_COLORS } from "./model.js";

/**
 * Inputs of the tag routes (compat-reference §7 and §4.1). Types and colours are checked here
 * (422); a name with nothing left after normalisation and the "email or externalId" rule are the
 * use cases' (400).
 */

export const TagColorCodec = oneOf(TAG_COLORS, "TagColor");

/** A tag name as given ("Pro Customer"); normalised by the use case (pro-customer). */
const TagName = required(TagNameInput);

/** POST /tags. */
export const CreateTagCommand = t.exact(t.intersection([t.type({ name: TagName }), t.partial({ color: optional(TagColorCodec) })]), "CreateTagCommand");
export type CreateTagCommand = t.TypeOf<typeof CreateTagCommand>;

/** PATCH /tags/{tagId}: the colour is the only editable field (a name is ignored). */
export const UpdateTagCommand = t.exact(t.partial({ color: optional(TagColorCodec) }), "UpdateTagCommand");
export type UpdateTagCommand = t.TypeOf<typeof UpdateTagCommand>;

export const TagPath = t.type({ tagId: TrimmedNonEmpty }, "TagPath");

/** The contact of a single-contact tag call: by email, else by externalId. */
const ContactReference = {
  email: optional(Email),
  externalId: optional(boundedText(255)),
};

/** POST /subscribers/tags: one tag on one contact, created (contact and tag) when missing. */
export const TagContactCommand = t.exact(
  t.intersection([t.type({ tag: TagName }), t.partial({ ...ContactReference, customAttributes: optional(CustomAttributes) })]),
  "TagContactCommand",
);
export type TagContactCommand = t.TypeOf<typeof TagContactCommand>;

/** POST /subscribers/tags/bulk: several tags on one contact. */
export const TagContactBulkCommand = t.exact(
  t.intersection([t.type({ tags: required(t.array(TagNameInput)) }), t.partial({ ...ContactReference, customAttributes: optional(CustomAttributes) })]),
  "TagContactBulkCommand",
);
export type TagContactBulkCommand = t.TypeOf<typeof TagContactBulkCommand>;

/** A first or last name; null clears it. */
const PersonName = optional(t.union([boundedText(255), t.null]));

/** POST /subscribers/tags/remove: takes one tag off an existing contact (and updates its names when given). */
export const UntagContactCommand = t.exact(
  t.intersection([t.type({ tag: TagName }), t.partial({ ...ContactReference, firstName: PersonName, lastName: PersonName })]),
  "UntagContactCommand",
);
export type UntagContactCommand = t.TypeOf<typeof UntagContactCommand>;
