import * as t from "io-ts";
import { BulkTag } from "../../../core/subscriber-operations/bulk-tag.js";
import { CancelOperation } from "../../../core/subscriber-operations/cancel-operation.js";
import { BulkAddTagsCommand, BulkRemoveTagsCommand, StartOperationCommand } from "../../../core/subscriber-operations/commands.js";
import { GetOperation } from "../../../core/subscriber-operations/get-operation.js";
import { ListOperations } from "../../../core/subscriber-operations/list-operations.js";
import { StartOperation } from "../../../core/subscriber-operations/start-operation.js";
import { BulkTagOutcome, OperationView } from "../../../core/subscriber-operations/view.js";
import { TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const TAG = "Subscribers";

const OperationPath = t.type({ operationId: TrimmedNonEmpty });

/** Bulk tags and subscriber operations. */
export const subscriberOperationsRoutes = routeModule(
  { bulkTag: BulkTag, startOperation: StartOperation, listOperations: ListOperations, getOperation: GetOperation, cancelOperation: CancelOperation },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/subscribers/bulk/tags/add",
      tag: TAG,
      scopes: ["subscribers:tag"],
      summary: "Add tags to up to 500 existing contacts named by email, externalId or subscriber ID (unknown ones are reported, not created)",
      body: BulkAddTagsCommand,
      response: BulkTagOutcome,
      errors: [400, 403, 422],
      handle: async ({ input, actor }) => uses.bulkTag.add(actor, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/subscribers/bulk/tags/remove",
      tag: TAG,
      scopes: ["subscribers:tag"],
      summary: "Remove tags from up to 500 existing contacts named by email, externalId or subscriber ID",
      body: BulkRemoveTagsCommand,
      response: BulkTagOutcome,
      errors: [400, 403, 422],
      handle: async ({ input, actor }) => uses.bulkTag.remove(actor, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/subscribers/operations",
      tag: TAG,
      scopes: ["subscribers:tag"],
      summary: "Start a background operation (kind add_tags) over an audience (omitted = every contact); the same requestKey returns the operation it started",
      body: StartOperationCommand,
      response: view({ operation: OperationView }),
      errors: [400, 403, 404, 422],
      successStatus: 202,
      handle: async ({ input, actor }) => under("operation")(await uses.startOperation.execute(actor, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/subscribers/operations",
      tag: TAG,
      scopes: ["subscribers:read"],
      summary: "The 20 most recent subscriber operations, newest first",
      response: view({ operations: t.readonlyArray(OperationView) }),
      errors: [403],
      handle: async ({ actor }) => under("operations")(await uses.listOperations.execute(actor)),
    }),
    defineRoute({
      method: "get",
      path: "/subscribers/operations/:operationId",
      tag: TAG,
      scopes: ["subscribers:read"],
      summary: "One subscriber operation and its progress",
      params: OperationPath,
      response: view({ operation: OperationView }),
      errors: [403, 404],
      handle: async ({ input, actor }) => under("operation")(await uses.getOperation.execute(actor, input.params.operationId)),
    }),
    defineRoute({
      method: "post",
      path: "/subscribers/operations/:operationId/cancel",
      tag: TAG,
      scopes: ["subscribers:tag"],
      summary: "Cancel a queued or running operation; contacts already processed keep their tags",
      params: OperationPath,
      response: view({ operation: OperationView }),
      errors: [400, 403, 404],
      handle: async ({ input, actor }) => under("operation")(await uses.cancelOperation.execute(actor, input.params.operationId)),
    }),
  ],
);
