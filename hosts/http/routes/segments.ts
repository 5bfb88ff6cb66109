import * as t from "io-ts";
import { CreateSegmentCommand, UpdateSegmentCommand } from "../../../core/segments/commands.js";
import { CountSegment } from "../../../core/segments/count-segment.js";
import { CreateSegment } from "../../../core/segments/create-segment.js";
import { DeleteSegment } from "../../../core/segments/delete-segment.js";
import { ListSegments } from "../../../core/segments/list-segments.js";
import { MAX_REFERENCE_DEPTH, MAX_REFERENCES } from "../../../core/segments/reference-limits.js";
import { UpdateSegment } from "../../../core/segments/update-segment.js";
import { SegmentView } from "../../../core/segments/view.js";
import { TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const SegmentPath = t.type({ segmentId: TrimmedNonEmpty });

const LIMITS = `segment references: at most ${MAX_REFERENCE_DEPTH} levels deep and ${MAX_REFERENCES} in total (400 SEGMENT_REFERENCE_DEPTH_EXCEEDED / SEGMENT_REFERENCE_COUNT_EXCEEDED)`;

export const segmentsRoutes = routeModule(
  { listSegments: ListSegments, createSegment: CreateSegment, updateSegment: UpdateSegment, deleteSegment: DeleteSegment, countSegment: CountSegment },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/segments",
      tag: "Segments",
      scopes: ["segments:read"],
      summary: "List the company's segments with their counts",
      response: view({ segments: t.readonlyArray(SegmentView) }),
      handle: async ({ actor }) => under("segments")(await uses.listSegments.execute(actor)),
    }),
    defineRoute({
      method: "post",
      path: "/segments",
      tag: "Segments",
      scopes: ["segments:write"],
      summary: `Create a segment from filters[] (flat) or a root group tree (nested); ${LIMITS}`,
      body: CreateSegmentCommand,
      response: view({ segment: SegmentView }),
      errors: [400],
      handle: async ({ input, actor }) => under("segment")(await uses.createSegment.execute(actor, input.body)),
    }),
    defineRoute({
      method: "patch",
      path: "/segments/:segmentId",
      tag: "Segments",
      scopes: ["segments:write"],
      summary: `Rename a segment or replace its rules; ${LIMITS}`,
      params: SegmentPath,
      body: UpdateSegmentCommand,
      response: view({ segment: SegmentView }),
      errors: [400, 404],
      handle: async ({ input, actor }) => under("segment")(await uses.updateSegment.execute(actor, input.params.segmentId, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/segments/:segmentId",
      tag: "Segments",
      scopes: ["segments:delete"],
      summary: "Delete a segment no other segment references",
      params: SegmentPath,
      response: view({ segmentId: Id }),
      errors: [404, 409],
      handle: async ({ input, actor }) => uses.deleteSegment.execute(actor, input.params.segmentId),
    }),
    defineRoute({
      method: "get",
      path: "/segments/:segmentId/count",
      tag: "Segments",
      scopes: ["segments:read"],
      summary: `Count the contacts (any status) a segment matches now; ${LIMITS}`,
      params: SegmentPath,
      response: view({ count: t.number, segmentId: Id }),
      errors: [400, 404],
      handle: async ({ input, actor }) => uses.countSegment.execute(actor, input.params.segmentId),
    }),
  ],
);
