import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { AddListMembers, type AddedMembers } from "../../../core/lists/add-list-members.js";
import { AddListMembersCommand, CreateListCommand, ListPath, RemoveListMembersCommand, UpdateListCommand } from "../../../core/lists/commands.js";
import { CreateList } from "../../../core/lists/create-list.js";
import { DeleteList } from "../../../core/lists/delete-list.js";
import { ListLists } from "../../../core/lists/list-lists.js";
import { MAX_MEMBERSHIP_EMAILS } from "../../../core/lists/model.js";
import { RemoveListMembers, type RemovedMembers } from "../../../core/lists/remove-list-members.js";
import { UpdateList } from "../../../core/lists/update-list.js";
import { defineRoute, type Route } from "../route.js";
import { Id, NullableString, Timestamp } from "../schemas.js";

const ListResource = t.type({
  id: Id,
  name: t.string,
  description: NullableString,
  isPrivate: t.boolean,
  allowMemberUnsubscribe: t.boolean,
  subscriberCount: t.number,
  activeSubscriberCount: t.number,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** Lists and their memberships (compat-reference §8). */
export const listsRoutes: readonly Route[] = [
  defineRoute({
    method: "get",
    path: "/lists",
    tag: "Lists",
    scopes: ["lists:read"],
    summary:
      "List the company's lists, alphabetical. subscriberCount: every membership; activeSubscriberCount: members whose contact is active and who have not left the list",
    response: t.type({ lists: t.array(ListResource) }),
    handle: async ({ actor, container }) => map((lists) => ({ lists }))(await container.get(ListLists).execute(actor)),
  }),
  defineRoute({
    method: "post",
    path: "/lists",
    tag: "Lists",
    scopes: ["lists:write"],
    summary: "Create a list; names are unique per company (409). A companyId in the body is ignored",
    body: CreateListCommand,
    response: t.type({ list: ListResource }),
    errors: [409, 422],
    handle: async ({ input, actor, container }) => map((list) => ({ list }))(await container.get(CreateList).execute(actor, input.body)),
  }),
  defineRoute({
    method: "patch",
    path: "/lists/:listId",
    tag: "Lists",
    scopes: ["lists:write"],
    summary: "Change any of name, description (null clears), isPrivate, allowMemberUnsubscribe; 404 'List not found', 409 on a taken name",
    params: ListPath,
    body: UpdateListCommand,
    response: t.type({ list: ListResource }),
    errors: [400, 404, 409, 422],
    handle: async ({ input, actor, container }) => map((list) => ({ list }))(await container.get(UpdateList).execute(actor, input.params.listId, input.body)),
  }),
  defineRoute({
    method: "delete",
    path: "/lists/:listId",
    tag: "Lists",
    scopes: ["lists:write"],
    summary: "Delete a list and its memberships; the contacts stay. 404 'List not found'",
    params: ListPath,
    response: t.type({ listId: Id }),
    errors: [404],
    handle: async ({ input, actor, container }) => container.get(DeleteList).execute(actor, input.params.listId),
  }),
  defineRoute({
    method: "post",
    path: "/lists/:listId/subscribers",
    tag: "Lists",
    scopes: ["lists:write"],
    summary: `Add 1 to ${MAX_MEMBERSHIP_EMAILS} contacts by email; unknown emails become contacts (created counts them). added + skipped = emails given; skipped: members already (a contact who left the list is not re-subscribed) or repeated. 404 'List not found'`,
    params: ListPath,
    body: AddListMembersCommand,
    response: t.intersection([
      t.type({ list: ListResource, added: t.number, skipped: t.number, created: t.number }),
      t.partial({ warnings: t.array(t.string) }),
    ]),
    errors: [404, 422],
    handle: async ({ input, actor, container }) =>
      map((outcome: AddedMembers) => ({ ...outcome }))(await container.get(AddListMembers).execute(actor, input.params.listId, input.body)),
  }),
  defineRoute({
    method: "post",
    path: "/lists/:listId/subscribers/remove",
    tag: "Lists",
    scopes: ["lists:write"],
    summary: `Remove 1 to ${MAX_MEMBERSHIP_EMAILS} contacts from the list by email; the contacts stay. skipped: contacts that were not members; notFound: emails naming no contact. 404 'List not found'`,
    params: ListPath,
    body: RemoveListMembersCommand,
    response: t.type({ list: ListResource, removed: t.number, skipped: t.number, notFound: t.array(t.string) }),
    errors: [404, 422],
    handle: async ({ input, actor, container }) =>
      map((outcome: RemovedMembers) => ({ ...outcome }))(await container.get(RemoveListMembers).execute(actor, input.params.listId, input.body)),
  }),
];
