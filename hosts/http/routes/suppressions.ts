import { PagePaginationView } from "../../../core/shared/page-pagination.js";
import * as t from "io-ts";
import { ListSuppressionsQuery, SuppressionEmailPath, SuppressionRegionQuery } from "../../../core/suppressions/commands.js";
import { GetSuppression } from "../../../core/suppressions/get-suppression.js";
import { ListSuppressions } from "../../../core/suppressions/list-suppressions.js";
import { RemoveSuppression } from "../../../core/suppressions/remove-suppression.js";
import { SuppressionView } from "../../../core/suppressions/view.js";
import { view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

/** The suppression list (compat-reference §24): addresses that hard-bounced, complained, unsubscribed or were blocked. */
export const suppressionsRoutes = routeModule(
  {
    listSuppressions: ListSuppressions,
    getSuppression: GetSuppression,
    removeSuppression: RemoveSuppression,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/suppressions",
      tag: "Suppressions",
      scopes: ["suppressions:read"],
      summary:
        "List suppressed addresses with their suppressionType and whether DELETE lifts them (removable). search (part of the address), page (from 1), limit 1-100 (25), sort suppressedAt (default, newest first) | email | status (the suppression type), order asc|desc",
      query: ListSuppressionsQuery,
      response: view({
        suppressions: t.readonlyArray(SuppressionView),
        pagination: PagePaginationView,
        sortBy: t.string,
        sortOrder: t.string,
      }),
      errors: [422],
      handle: async ({ input, actor }) => uses.listSuppressions.execute(actor, input.query),
    }),
    defineRoute({
      method: "get",
      path: "/suppressions/:email",
      tag: "Suppressions",
      scopes: ["suppressions:read"],
      summary: "The suppression of one address; 404 'Suppression not found' when mail can reach it",
      params: SuppressionEmailPath,
      query: SuppressionRegionQuery,
      response: view({ suppression: SuppressionView }),
      errors: [404, 422],
      handle: async ({ input, actor }) => under("suppression")(await uses.getSuppression.execute(actor, input.params.email)),
    }),
    defineRoute({
      method: "delete",
      path: "/suppressions/:email",
      tag: "Suppressions",
      scopes: ["suppressions:write"],
      summary:
        "Lift a bounce block or a manual block so mail reaches the address again; a bounced contact becomes active (removedLocalBounce). A complaint or an unsubscribe stays (removable: false): removed is false and remainingSuppression shows it. removed is also false when nothing blocked the address",
      params: SuppressionEmailPath,
      query: SuppressionRegionQuery,
      response: view({
        email: t.string,
        removed: t.boolean,
        removedLocalBounce: t.boolean,
        removedSesRegions: t.readonlyArray(t.string),
        remainingSuppression: t.union([SuppressionView, t.null]),
        message: t.string,
      }),
      errors: [422],
      handle: async ({ input, actor }) => uses.removeSuppression.execute(actor, input.params.email),
    }),
  ],
);
