import {
  CreateSubscriberCommand,
  ExternalDetailQuery,
  ExternalIdQuery,
  ListSubscribersQuery,
  SubscriberDetailQuery,
  SubscriberEmailPath,
  UpdateSubscriberCommand,
} from "../../../core/subscribers/commands.js";
import { CreateSubscriber } from "../../../core/subscribers/create-subscriber.js";
import { DeleteSubscriber } from "../../../core/subscribers/delete-subscriber.js";
import { GetSubscriber } from "../../../core/subscribers/get-subscriber.js";
import { ListSubscribers } from "../../../core/subscribers/list-subscribers.js";
import { UpdateSubscriber } from "../../../core/subscribers/update-subscriber.js";
import { CreatedSubscriberView, DeletedSubscriberView, SubscriberDetailView, SubscriberListingView, SubscriberView } from "../../../core/subscribers/view.js";
import { view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

/** How the detail's activity is paged. */
const ACTIVITY_PAGES =
  "custom and email events merged, newest first: activityLimit 1-100 (50), activityCursor from activityPagination.nextCursor for the page before; 400 for a cursor not given out here";
const BY_EMAIL = "the contact's email, URL-encoded";
const BY_EXTERNAL_ID = "by externalId in the query string (for IDs containing `/`, or contacts without a known email)";

/**
 * Subscribers. `/subscribers/external` is declared before `/subscribers/:email`, and these
 * routes are mounted last, after every fixed `/subscribers/...` path.
 */
export const subscribersRoutes = routeModule(
  {
    createSubscriber: CreateSubscriber,
    listSubscribers: ListSubscribers,
    getSubscriber: GetSubscriber,
    updateSubscriber: UpdateSubscriber,
    deleteSubscriber: DeleteSubscriber,
  },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/subscribers",
      tag: "Subscribers",
      scopes: ["subscribers:write"],
      summary:
        "Create a subscriber, or match an existing one (email, then externalId) and apply duplicateStrategy (skip, merge, overwrite). " +
        "Double opt-in (optInMode double_opt_in, or default with the company's doubleOptInEnabled; confirmed never asks): a new contact gets a confirmation email " +
        "and no marketing email until it confirms; an unconfirmed one is emailed again at most every 10 minutes. optIn.emailQueued: this request queued the email (else warnings say why)",
      body: CreateSubscriberCommand,
      response: CreatedSubscriberView,
      errors: [400, 404, 409, 422],
      handle: async ({ input, actor }) => uses.createSubscriber.execute(actor, input.body),
    }),
    defineRoute({
      method: "get",
      path: "/subscribers",
      tag: "Subscribers",
      scopes: ["subscribers:read"],
      summary:
        "List subscribers, newest first: query, email, tags (comma, all required), list/listId/listName, segmentId, status, unsubscribedAfter/Before, attribute name:value with attributeOperator (then by ID ascending, no total); page or cursor, limit 1-1000 (default 20)",
      query: ListSubscribersQuery,
      response: SubscriberListingView,
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.listSubscribers.execute(actor, input.query),
    }),
    defineRoute({
      method: "get",
      path: "/subscribers/external",
      tag: "Subscribers",
      scopes: ["subscribers:read"],
      summary: `Get a subscriber with notes, lists, email stats and its activity (${ACTIVITY_PAGES}), ${BY_EXTERNAL_ID}`,
      query: ExternalDetailQuery,
      response: view({ subscriber: SubscriberDetailView }),
      errors: [400, 404, 422],
      handle: async ({ input: { query }, actor }) => {
        const { externalId, ...options } = query;
        return under("subscriber")(await uses.getSubscriber.execute(actor, { externalId }, options));
      },
    }),
    defineRoute({
      method: "patch",
      path: "/subscribers/external",
      tag: "Subscribers",
      scopes: ["subscribers:write"],
      summary: `Update a subscriber ${BY_EXTERNAL_ID}; status unsubscribed is a global unsubscribe`,
      query: ExternalIdQuery,
      body: UpdateSubscriberCommand,
      response: view({ subscriber: SubscriberView }),
      errors: [400, 404, 409, 422],
      handle: async ({ input, actor }) => under("subscriber")(await uses.updateSubscriber.execute(actor, { externalId: input.query.externalId }, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/subscribers/external",
      tag: "Subscribers",
      scopes: ["subscribers:delete"],
      summary: `Delete a subscriber for good (notes, memberships and events go with it), ${BY_EXTERNAL_ID}`,
      query: ExternalIdQuery,
      response: DeletedSubscriberView,
      errors: [404, 422],
      handle: async ({ input, actor }) => uses.deleteSubscriber.execute(actor, { externalId: input.query.externalId }),
    }),
    defineRoute({
      method: "get",
      path: "/subscribers/:email",
      tag: "Subscribers",
      scopes: ["subscribers:read"],
      summary: `Get a subscriber with notes, lists, email stats and its activity (${ACTIVITY_PAGES}); ${BY_EMAIL}`,
      params: SubscriberEmailPath,
      query: SubscriberDetailQuery,
      response: view({ subscriber: SubscriberDetailView }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("subscriber")(await uses.getSubscriber.execute(actor, { email: input.params.email }, input.query)),
    }),
    defineRoute({
      method: "patch",
      path: "/subscribers/:email",
      tag: "Subscribers",
      scopes: ["subscribers:write"],
      summary: `Update a subscriber; ${BY_EMAIL}; status unsubscribed is a global unsubscribe`,
      params: SubscriberEmailPath,
      body: UpdateSubscriberCommand,
      response: view({ subscriber: SubscriberView }),
      errors: [400, 404, 409, 422],
      handle: async ({ input, actor }) => under("subscriber")(await uses.updateSubscriber.execute(actor, { email: input.params.email }, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/subscribers/:email",
      tag: "Subscribers",
      scopes: ["subscribers:delete"],
      summary: `Delete a subscriber for good (notes, memberships and events go with it); ${BY_EMAIL}`,
      params: SubscriberEmailPath,
      response: DeletedSubscriberView,
      errors: [404],
      handle: async ({ input, actor }) => uses.deleteSubscriber.execute(actor, { email: input.params.email }),
    }),
  ],
);
