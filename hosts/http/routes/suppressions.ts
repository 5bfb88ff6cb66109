import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { ListSuppressionsQuery, SuppressionEmailPath, SuppressionRegionQuery } from "../../../core/suppressions/commands.js";
import { GetSuppression } from "../../../core/suppressions/get-suppression.js";
import { ListSuppressions, type SuppressionPage } from "../../../core/suppressions/list-suppressions.js";
import { RemoveSuppression, type RemovedSuppression } from "../../../core/suppressions/remove-suppression.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, Timestamp } from "../../../core/shared/view-fields.js";

const SuppressionResource = t.type({
  id: Id,
  email: t.string,
  suppressionType: t.string,
  reason: t.string,
  emailSendId: NullableString,
  removable: t.boolean,
  suppressedAt: Timestamp,
});

/** The suppression list (compat-reference §24): addresses that hard-bounced, complained, unsubscribed or were blocked. */
export const suppressionsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "get",
    path: "/suppressions",
    tag: "Suppressions",
    scopes: ["suppressions:read"],
    summary:
      "List suppressed addresses. search (part of the address), page (from 1), limit 1-100 (25), sort suppressedAt (default, newest first) | email | status (the suppression type), order asc|desc",
    query: ListSuppressionsQuery,
    response: t.type({
      suppressions: t.array(SuppressionResource),
      pagination: t.type({ page: t.number, limit: t.number, total: t.number, totalPages: t.number }),
      sortBy: t.string,
      sortOrder: t.string,
    }),
    errors: [422],
    handle: async ({ input, actor, container }) => map((page: SuppressionPage) => ({ ...page }))(await container.get(ListSuppressions).execute(actor, input.query)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/suppressions/:email",
    tag: "Suppressions",
    scopes: ["suppressions:read"],
    summary: "The suppression of one address; 404 'Suppression not found' when mail can reach it",
    params: SuppressionEmailPath,
    query: SuppressionRegionQuery,
    response: t.type({ suppression: SuppressionResource }),
    errors: [404, 422],
    handle: async ({ input, actor, container }) => map((suppression) => ({ suppression }))(await container.get(GetSuppression).execute(actor, input.params.email)),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/suppressions/:email",
    tag: "Suppressions",
    scopes: ["suppressions:write"],
    summary: "Let mail reach the address again. removed is false when it was not suppressed; removedLocalBounce when the suppression came from a hard bounce",
    params: SuppressionEmailPath,
    query: SuppressionRegionQuery,
    response: t.type({ email: t.string, removed: t.boolean, removedLocalBounce: t.boolean, removedSesRegions: t.array(t.string), remainingSuppression: t.null }),
    errors: [422],
    handle: async ({ input, actor, container }) => map((removed: RemovedSuppression) => ({ ...removed }))(await container.get(RemoveSuppression).execute(actor, input.params.email)),
  }),
];
