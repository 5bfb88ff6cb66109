import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { BulkTag } from "../../../core/subscriber-operations/bulk-tag.js";
import { CancelOperation } from "../../../core/subscriber-operations/cancel-operation.js";
import { BulkAddTagsCommand, BulkRemoveTagsCommand, StartOperationCommand } from "../../../core/subscriber-operations/commands.js";
import { GetOperation } from "../../../core/subscriber-operations/get-operation.js";
import { ListOperations } from "../../../core/subscriber-operations/list-operations.js";
import { OPERATION_KINDS, OPERATION_STATUSES } from "../../../core/subscriber-operations/model.js";
import { StartOperation } from "../../../core/subscriber-operations/start-operation.js";
import { TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, NullableTimestamp, Timestamp } from "../../../core/shared/view-fields.js";

const TAG = "Subscribers";
const keysOf = <T extends string>(values: readonly T[]) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<T, null>);

const BulkTagsResponse = t.type({
  tags: t.array(t.string),
  requested: t.number,
  matched: t.number,
  updated: t.number,
  unchanged: t.number,
  failed: t.number,
  notFound: t.type({ emails: t.array(t.string), externalIds: t.array(t.string), subscriberIds: t.array(t.string) }),
  failures: t.array(t.intersection([t.type({ error: t.string }), t.partial({ email: t.string, subscriberId: Id })])),
  triggeredAutomations: t.boolean,
});

/** The spec resource "Subscriber operation (bulk)". */
const OperationResource = t.type({
  id: Id,
  companyId: Id,
  kind: keysOf(OPERATION_KINDS),
  status: keysOf(OPERATION_STATUSES),
  total: t.number,
  processed: t.number,
  succeeded: t.number,
  failed: t.number,
  error: NullableString,
  failures: t.array(t.type({ subscriberId: Id, error: t.string })),
  createdAt: Timestamp,
  completedAt: NullableTimestamp,
  expiresAt: NullableTimestamp,
});

const OperationPath = t.type({ operationId: TrimmedNonEmpty });

/** Bulk tags and subscriber operations. */
export const subscriberOperationsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/bulk/tags/add",
    tag: TAG,
    scopes: ["subscribers:tag"],
    summary: "Add tags to up to 500 existing contacts named by email, externalId or subscriber ID (unknown ones are reported, not created)",
    body: BulkAddTagsCommand,
    response: BulkTagsResponse,
    errors: [400, 403, 422],
    handle: async ({ input, actor, container }) => map((outcome: object) => ({ ...outcome }))(await container.get(BulkTag).add(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/bulk/tags/remove",
    tag: TAG,
    scopes: ["subscribers:tag"],
    summary: "Remove tags from up to 500 existing contacts named by email, externalId or subscriber ID",
    body: BulkRemoveTagsCommand,
    response: BulkTagsResponse,
    errors: [400, 403, 422],
    handle: async ({ input, actor, container }) => map((outcome: object) => ({ ...outcome }))(await container.get(BulkTag).remove(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/operations",
    tag: TAG,
    scopes: ["subscribers:tag"],
    summary: "Start a background operation (kind add_tags) over an audience (omitted = every contact); the same requestKey returns the operation it started",
    body: StartOperationCommand,
    response: t.type({ operation: OperationResource }),
    errors: [400, 403, 404, 422],
    successStatus: 202,
    handle: async ({ input, actor, container }) => map((operation) => ({ operation }))(await container.get(StartOperation).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/subscribers/operations",
    tag: TAG,
    scopes: ["subscribers:read"],
    summary: "The 20 most recent subscriber operations, newest first",
    response: t.type({ operations: t.array(OperationResource) }),
    errors: [403],
    handle: async ({ actor, container }) => map((operations) => ({ operations }))(await container.get(ListOperations).execute(actor)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/subscribers/operations/:operationId",
    tag: TAG,
    scopes: ["subscribers:read"],
    summary: "One subscriber operation and its progress",
    params: OperationPath,
    response: t.type({ operation: OperationResource }),
    errors: [403, 404],
    handle: async ({ input, actor, container }) =>
      map((operation) => ({ operation }))(await container.get(GetOperation).execute(actor, input.params.operationId)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/operations/:operationId/cancel",
    tag: TAG,
    scopes: ["subscribers:tag"],
    summary: "Cancel a queued or running operation; contacts already processed keep their tags",
    params: OperationPath,
    response: t.type({ operation: OperationResource }),
    errors: [400, 403, 404],
    handle: async ({ input, actor, container }) =>
      map((operation) => ({ operation }))(await container.get(CancelOperation).execute(actor, input.params.operationId)),
  }),
];
