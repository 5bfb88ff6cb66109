import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateTagCommand, TagContactBulkCommand, TagContactCommand, TagPath, UntagContactCommand, UpdateTagCommand } from "../../../core/tags/commands.js";
import { CreateTag } from "../../../core/tags/create-tag.js";
import { DeleteTag } from "../../../core/tags/delete-tag.js";
import { ListTags } from "../../../core/tags/list-tags.js";
import { MAX_TAGS_PER_CONTACT_CALL, TagContact, type TaggedContact } from "../../../core/tags/tag-contact.js";
import { UntagContact, type UntaggedContact } from "../../../core/tags/untag-contact.js";
import { UpdateTag } from "../../../core/tags/update-tag.js";
import type { Attributes } from "../../../core/subscribers/model.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, Timestamp } from "../../../core/shared/view-fields.js";

const TagResource = t.type({
  id: Id,
  name: t.string,
  color: t.string,
  isSystem: t.boolean,
  subscriberCount: t.number,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** The contact as the single-contact tag routes return it. */
const ContactResource = t.type({ id: Id, email: t.string, externalId: NullableString, tags: t.array(t.string), created: t.boolean });

const CONTACT_RULES =
  "The contact is named by email, else by externalId (400 'Provide email or externalId'); a missing contact is created (an email is needed), given customAttributes are merged.";

/** Tags (compat-reference §7) and the single-contact tag calls (§4.1). */
export const tagsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "get",
    path: "/tags",
    tag: "Tags",
    scopes: ["tags:read"],
    summary: "List the company's tags, alphabetical, each with subscriberCount (contacts carrying it)",
    response: t.type({ tags: t.array(TagResource) }),
    handle: async ({ actor, container }) => map((tags) => ({ tags }))(await container.get(ListTags).execute(actor)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/tags",
    tag: "Tags",
    scopes: ["tags:write"],
    summary:
      "Create a tag. The name is normalised (trimmed, lower-cased, spaces and underscores become '-', other punctuation dropped: 'Pro Customer' -> pro-customer); 400 when nothing is left, 409 'Tag already exists'. color defaults to gray.",
    body: CreateTagCommand,
    response: t.type({ tag: TagResource }),
    errors: [400, 409, 422],
    handle: async ({ input, actor, container }) => map((tag) => ({ tag }))(await container.get(CreateTag).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/tags/:tagId",
    tag: "Tags",
    scopes: ["tags:write"],
    summary: "Change a tag's color, its only editable field; system tags are refused (400); 404 'Tag not found'",
    params: TagPath,
    body: UpdateTagCommand,
    response: t.type({ tag: TagResource }),
    errors: [400, 404, 422],
    handle: async ({ input, actor, container }) => map((tag) => ({ tag }))(await container.get(UpdateTag).execute(actor, input.params.tagId, input.body)),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/tags/:tagId",
    tag: "Tags",
    scopes: ["tags:write"],
    summary: "Delete a tag and take it off every contact; system tags are refused (400); 404 'Tag not found'",
    params: TagPath,
    response: t.type({ tagId: Id }),
    errors: [400, 404],
    handle: async ({ input, actor, container }) => container.get(DeleteTag).execute(actor, input.params.tagId),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/tags",
    tag: "Tags",
    scopes: ["subscribers:tag"],
    summary: `Put one tag on one contact; the tag is created when missing (tag.created). ${CONTACT_RULES}`,
    body: TagContactCommand,
    response: t.type({ subscriber: ContactResource, tag: t.type({ id: Id, name: t.string, created: t.boolean }) }),
    errors: [400, 409, 422],
    handle: async ({ input, actor, container }) => {
      const { tag, customAttributes, ...reference } = input.body;
      const result = await container.get(TagContact).execute(actor, { ...reference, tags: [tag], customAttributes: customAttributes as Attributes | undefined });
      // One name in, one tag out.
      return map(({ subscriber, tags: [applied] }: TaggedContact) => ({ subscriber, tag: { id: applied!.id, name: applied!.name, created: applied!.created } }))(result);
    },
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/tags/bulk",
    tag: "Tags",
    scopes: ["subscribers:tag"],
    summary: `Put up to ${MAX_TAGS_PER_CONTACT_CALL} tags on one contact. tags.added: names the contact did not carry before; tags.created: names new to the company. ${CONTACT_RULES}`,
    body: TagContactBulkCommand,
    response: t.type({ subscriber: ContactResource, tags: t.type({ added: t.array(t.string), created: t.array(t.string) }) }),
    errors: [400, 409, 422],
    handle: async ({ input, actor, container }) => {
      const { customAttributes, ...rest } = input.body;
      const result = await container.get(TagContact).execute(actor, { ...rest, customAttributes: customAttributes as Attributes | undefined });
      return map(({ subscriber, tags }: TaggedContact) => ({
        subscriber,
        tags: { added: tags.filter((tag) => tag.added).map((tag) => tag.name), created: tags.filter((tag) => tag.created).map((tag) => tag.name) },
      }))(result);
    },
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/tags/remove",
    tag: "Tags",
    scopes: ["subscribers:tag"],
    summary:
      "Take one tag off an existing contact (named by email, else externalId); firstName/lastName, when given, update the contact. tag.removed is false when the contact did not carry it. 404 'Subscriber not found'",
    body: UntagContactCommand,
    response: t.type({ subscriber: ContactResource, tag: t.type({ name: t.string, removed: t.boolean }) }),
    errors: [400, 404, 422],
    handle: async ({ input, actor, container }) => map(({ subscriber, tag }: UntaggedContact) => ({ subscriber, tag }))(await container.get(UntagContact).execute(actor, input.body)),
  }),
];
