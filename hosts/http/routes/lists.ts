import * as t from "io-ts";
import { AddListMembers } from "../../../core/lists/add-list-members.js";
import { AddListMembersCommand, CreateListCommand, ListPath, RemoveListMembersCommand, UpdateListCommand } from "../../../core/lists/commands.js";
import { CreateList } from "../../../core/lists/create-list.js";
import { DeleteList } from "../../../core/lists/delete-list.js";
import { ListLists } from "../../../core/lists/list-lists.js";
import { MAX_MEMBERSHIP_EMAILS } from "../../../core/lists/model.js";
import { RemoveListMembers } from "../../../core/lists/remove-list-members.js";
import { UpdateList } from "../../../core/lists/update-list.js";
import { ListView } from "../../../core/lists/view.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

/** Lists and their memberships (compat-reference §8). */
export const listsRoutes = routeModule(
  {
    listLists: ListLists,
    createList: CreateList,
    updateList: UpdateList,
    deleteList: DeleteList,
    addListMembers: AddListMembers,
    removeListMembers: RemoveListMembers,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/lists",
      tag: "Lists",
      scopes: ["lists:read"],
      summary:
        "List the company's lists, alphabetical. subscriberCount: every membership; activeSubscriberCount: members whose contact is active and who have not left the list",
      response: view({ lists: t.readonlyArray(ListView) }),
      handle: async ({ actor }) => under("lists")(await uses.listLists.execute(actor)),
    }),
    defineRoute({
      method: "post",
      path: "/lists",
      tag: "Lists",
      scopes: ["lists:write"],
      summary: "Create a list; names are unique per company (409). A companyId in the body is ignored",
      body: CreateListCommand,
      response: view({ list: ListView }),
      errors: [409, 422],
      handle: async ({ input, actor }) => under("list")(await uses.createList.execute(actor, input.body)),
    }),
    defineRoute({
      method: "patch",
      path: "/lists/:listId",
      tag: "Lists",
      scopes: ["lists:write"],
      summary: "Change any of name, description (null clears), isPrivate, allowMemberUnsubscribe; 404 'List not found', 409 on a taken name",
      params: ListPath,
      body: UpdateListCommand,
      response: view({ list: ListView }),
      errors: [400, 404, 409, 422],
      handle: async ({ input, actor }) => under("list")(await uses.updateList.execute(actor, input.params.listId, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/lists/:listId",
      tag: "Lists",
      scopes: ["lists:write"],
      summary: "Delete a list and its memberships; the contacts stay. 404 'List not found'",
      params: ListPath,
      response: view({ listId: Id }),
      errors: [404],
      handle: async ({ input, actor }) => uses.deleteList.execute(actor, input.params.listId),
    }),
    defineRoute({
      method: "post",
      path: "/lists/:listId/subscribers",
      tag: "Lists",
      scopes: ["lists:write"],
      summary: `Add 1 to ${MAX_MEMBERSHIP_EMAILS} contacts by email; unknown emails become contacts (created counts them). added + skipped = emails given; skipped: members already (a contact who left the list is not re-subscribed) or repeated. Contacts created here are asked to confirm when double opt-in applies (optInMode, or the company's setting). 404 'List not found'`,
      params: ListPath,
      body: AddListMembersCommand,
      response: t.exact(
        t.intersection([t.type({ list: ListView, added: t.number, skipped: t.number, created: t.number }), t.partial({ warnings: t.readonlyArray(t.string) })]),
      ),
      errors: [404, 422],
      handle: async ({ input, actor }) => uses.addListMembers.execute(actor, input.params.listId, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/lists/:listId/subscribers/remove",
      tag: "Lists",
      scopes: ["lists:write"],
      summary: `Remove 1 to ${MAX_MEMBERSHIP_EMAILS} contacts from the list by email; the contacts stay. skipped: contacts that were not members; notFound: emails naming no contact. 404 'List not found'`,
      params: ListPath,
      body: RemoveListMembersCommand,
      response: t.exact(t.type({ list: ListView, removed: t.number, skipped: t.number, notFound: t.readonlyArray(t.string) })),
      errors: [404, 422],
      handle: async ({ input, actor }) => uses.removeListMembers.execute(actor, input.params.listId, input.body),
    }),
  ],
);
