import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateSegmentCommand, UpdateSegmentCommand } from "../../../core/segments/commands.js";
import { CountSegment } from "../../../core/segments/count-segment.js";
import { CreateSegment } from "../../../core/segments/create-segment.js";
import { DeleteSegment } from "../../../core/segments/delete-segment.js";
import { ListSegments } from "../../../core/segments/list-segments.js";
import { FILTER_FIELDS, FILTER_OPERATORS, JOIN_OPERATORS, SEGMENT_FORMATS } from "../../../core/segments/model.js";
import { MAX_REFERENCE_DEPTH, MAX_REFERENCES } from "../../../core/segments/reference-limits.js";
import { UpdateSegment } from "../../../core/segments/update-segment.js";
import { TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { withSchema } from "../../../core/shared/json-schema.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, Timestamp } from "../../../core/shared/view-fields.js";

const keys = <K extends string>(values: readonly K[]) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<K, null>);

const FilterLeafResource = t.type({ id: t.string, field: keys(FILTER_FIELDS), operator: keys(FILTER_OPERATORS), value: t.string });

/** The tree is recursive: documented by hand (io-ts cannot describe recursion to JSON Schema). */
const FilterTreeResource = withSchema(new t.Type<unknown>("FilterTree", (u): u is unknown => true, t.success, t.identity), {
  type: "object",
  description: "The group tree: {kind:'group', id, joinOperator, children:[leaf {kind:'filter', id, field, operator, value} | group]}",
  properties: { kind: { const: "group" }, id: { type: "string" }, joinOperator: { type: "string", enum: [...JOIN_OPERATORS] }, children: { type: "array", items: { type: "object" } } },
  required: ["kind", "id", "joinOperator", "children"],
});

const SegmentResource = t.type({
  id: Id,
  name: t.string,
  format: keys(SEGMENT_FORMATS),
  filterJoinOperator: keys(JOIN_OPERATORS),
  filters: t.array(FilterLeafResource),
  root: FilterTreeResource,
  subscriberCount: t.number,
  activeSubscriberCount: t.number,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const SegmentPath = t.type({ segmentId: TrimmedNonEmpty });

const LIMITS = `segment references: at most ${MAX_REFERENCE_DEPTH} levels deep and ${MAX_REFERENCES} in total (400 SEGMENT_REFERENCE_DEPTH_EXCEEDED / SEGMENT_REFERENCE_COUNT_EXCEEDED)`;

export const segmentsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "get",
    path: "/segments",
    tag: "Segments",
    scopes: ["segments:read"],
    summary: "List the company's segments with their counts",
    response: t.type({ segments: t.array(SegmentResource) }),
    handle: async ({ actor, container }) => map((segments) => ({ segments }))(await container.get(ListSegments).execute(actor)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/segments",
    tag: "Segments",
    scopes: ["segments:write"],
    summary: `Create a segment from filters[] (flat) or a root group tree (nested); ${LIMITS}`,
    body: CreateSegmentCommand,
    response: t.type({ segment: SegmentResource }),
    errors: [400],
    handle: async ({ input, actor, container }) => map((segment) => ({ segment }))(await container.get(CreateSegment).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/segments/:segmentId",
    tag: "Segments",
    scopes: ["segments:write"],
    summary: `Rename a segment or replace its rules; ${LIMITS}`,
    params: SegmentPath,
    body: UpdateSegmentCommand,
    response: t.type({ segment: SegmentResource }),
    errors: [400, 404],
    handle: async ({ input, actor, container }) =>
      map((segment) => ({ segment }))(await container.get(UpdateSegment).execute(actor, input.params.segmentId, input.body)),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/segments/:segmentId",
    tag: "Segments",
    scopes: ["segments:delete"],
    summary: "Delete a segment no other segment references",
    params: SegmentPath,
    response: t.type({ segmentId: Id }),
    errors: [404, 409],
    handle: async ({ input, actor, container }) => container.get(DeleteSegment).execute(actor, input.params.segmentId),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/segments/:segmentId/count",
    tag: "Segments",
    scopes: ["segments:read"],
    summary: `Count the contacts (any status) a segment matches now; ${LIMITS}`,
    params: SegmentPath,
    response: t.type({ count: t.number, segmentId: Id }),
    errors: [400, 404],
    handle: async ({ input, actor, container }) => container.get(CountSegment).execute(actor, input.params.segmentId),
  }),
];
