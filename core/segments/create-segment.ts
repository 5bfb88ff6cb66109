import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { checkedDefinition } from "./checked-definition.js";
import { checkOwnedLists } from "./owned-lists.js";
import type { CreateSegmentCommand } from "./commands.js";
import { definitionConflict, prepareFlat, prepareGroup, type Segment } from "./model.js";
import type { SegmentEvaluator, SegmentRepository } from "./ports.js";
import { toSegmentView, type SegmentView } from "./view.js";

/** Creates a segment from `filters[]` (flat) or a `root` group tree (nested), and counts it. */
export class CreateSegment {
  constructor(
    private readonly segments: SegmentRepository,
    private readonly evaluator: SegmentEvaluator,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly docsUrl: string,
  ) {}

  execute = async (actor: Actor, command: CreateSegmentCommand): Promise<Result<SegmentView>> => {
    if (command.filters && command.root) return fail(definitionConflict());
    if (!command.filters && !command.root) return fail(badRequest("Provide filters (with an optional filterJoinOperator) or root"));
    const newId = () => this.ids.next("flt");
    const root = command.root ? prepareGroup(command.root, "root", newId) : prepareFlat(command.filters ?? [], command.filterJoinOperator ?? "and", newId);
    if (root._tag === "Left") return root;

    const now = this.clock.now();
    const segment: Segment = {
      id: this.ids.next("seg"),
      companyId: actor.companyId,
      name: command.name,
      format: command.root ? "nested" : "flat",
      root: root.right,
      createdAt: now,
      updatedAt: now,
    };
    const lists = await checkOwnedLists(this.segments, actor.companyId, segment.root);
    if (lists._tag === "Left") return lists;
    const definition = await checkedDefinition(this.segments, {
      companyId: actor.companyId,
      segmentId: segment.id,
      root: segment.root,
      now,
      docsUrl: this.docsUrl,
    });
    if (definition._tag === "Left") return definition;
    await this.segments.insert(segment);
    return ok(toSegmentView(segment, await this.evaluator.count(definition.right)));
  };
}
