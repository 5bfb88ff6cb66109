import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateTagCommand, TagContactBulkCommand, TagContactCommand, TagPath, UntagContactCommand, UpdateTagCommand } from "../../../core/tags/commands.js";
import { CreateTag } from "../../../core/tags/create-tag.js";
import { DeleteTag } from "../../../core/tags/delete-tag.js";
import { ListTags } from "../../../core/tags/list-tags.js";
import { MAX_TAGS_PER_CONTACT_CALL, TagContact, type TaggedContact } from "../../../core/tags/tag-contact.js";
import { UntagContact } from "../../../core/tags/untag-contact.js";
import { UpdateTag } from "../../../core/tags/update-tag.js";
import { ContactTagsView, TagView } from "../../../core/tags/view.js";
import type { Attributes } from "../../../core/subscribers/model.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const CONTACT_RULES =
  "The contact is named by email, else by externalId (400 'Provide email or externalId'); a missing contact is created (an email is needed), given customAttributes are merged.";

/** Tags (compat-reference §7) and the single-contact tag calls (§4.1). */
export const tagsRoutes = routeModule(
  { listTags: ListTags, createTag: CreateTag, updateTag: UpdateTag, deleteTag: DeleteTag, tagContact: TagContact, untagContact: UntagContact },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/tags",
      tag: "Tags",
      scopes: ["tags:read"],
      summary: "List the company's tags, alphabetical, each with subscriberCount (contacts carrying it)",
      response: view({ tags: t.readonlyArray(TagView) }),
      handle: async ({ actor }) => under("tags")(await uses.listTags.execute(actor)),
    }),
    defineRoute({
      method: "post",
      path: "/tags",
      tag: "Tags",
      scopes: ["tags:write"],
      summary:
        "Create a tag. The name is normalised (trimmed, lower-cased, spaces and underscores become '-', other punctuation dropped: 'Pro Customer' -> pro-customer); 400 when nothing is left, 409 'Tag already exists'. color defaults to gray.",
      body: CreateTagCommand,
      response: view({ tag: TagView }),
      errors: [400, 409, 422],
      handle: async ({ input, actor }) => under("tag")(await uses.createTag.execute(actor, input.body)),
    }),
    defineRoute({
      method: "patch",
      path: "/tags/:tagId",
      tag: "Tags",
      scopes: ["tags:write"],
      summary: "Change a tag's color, its only editable field; system tags are refused (400); 404 'Tag not found'",
      params: TagPath,
      body: UpdateTagCommand,
      response: view({ tag: TagView }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("tag")(await uses.updateTag.execute(actor, input.params.tagId, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/tags/:tagId",
      tag: "Tags",
      scopes: ["tags:write"],
      summary: "Delete a tag and take it off every contact; system tags are refused (400); 404 'Tag not found'",
      params: TagPath,
      response: view({ tagId: Id }),
      errors: [400, 404],
      handle: async ({ input, actor }) => uses.deleteTag.execute(actor, input.params.tagId),
    }),
    defineRoute({
      method: "post",
      path: "/subscribers/tags",
      tag: "Tags",
      scopes: ["subscribers:tag"],
      summary: `Put one tag on one contact; the tag is created when missing (tag.created). ${CONTACT_RULES}`,
      body: TagContactCommand,
      response: view({ subscriber: ContactTagsView, tag: view({ id: Id, name: t.string, created: t.boolean }) }),
      errors: [400, 409, 422],
      handle: async ({ input, actor }) => {
        const { tag, customAttributes, ...reference } = input.body;
        const result = await uses.tagContact.execute(actor, { ...reference, tags: [tag], customAttributes: customAttributes as Attributes | undefined });
        // One name in, one tag out.
        return map(({ subscriber, tags: [applied] }: TaggedContact) => ({
          subscriber,
          tag: { id: applied!.id, name: applied!.name, created: applied!.created },
        }))(result);
      },
    }),
    defineRoute({
      method: "post",
      path: "/subscribers/tags/bulk",
      tag: "Tags",
      scopes: ["subscribers:tag"],
      summary: `Put up to ${MAX_TAGS_PER_CONTACT_CALL} tags on one contact. tags.added: names the contact did not carry before; tags.created: names new to the company. ${CONTACT_RULES}`,
      body: TagContactBulkCommand,
      response: view({ subscriber: ContactTagsView, tags: view({ added: t.readonlyArray(t.string), created: t.readonlyArray(t.string) }) }),
      errors: [400, 409, 422],
      handle: async ({ input, actor }) => {
        const { customAttributes, ...rest } = input.body;
        const result = await uses.tagContact.execute(actor, { ...rest, customAttributes: customAttributes as Attributes | undefined });
        return map(({ subscriber, tags }: TaggedContact) => ({
          subscriber,
          tags: { added: tags.filter((tag) => tag.added).map((tag) => tag.name), created: tags.filter((tag) => tag.created).map((tag) => tag.name) },
        }))(result);
      },
    }),
    defineRoute({
      method: "post",
      path: "/subscribers/tags/remove",
      tag: "Tags",
      scopes: ["subscribers:tag"],
      summary:
        "Take one tag off an existing contact (named by email, else externalId); firstName/lastName, when given, update the contact. tag.removed is false when the contact did not carry it. 404 'Subscriber not found'",
      body: UntagContactCommand,
      response: view({ subscriber: ContactTagsView, tag: view({ name: t.string, removed: t.boolean }) }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.untagContact.execute(actor, input.body),
    }),
  ],
);
