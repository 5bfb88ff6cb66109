import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { checkedDefinition } from "./checked-definition.js";
import { checkOwnedLists } from "./owned-lists.js";
import type { UpdateSegmentCommand } from "./commands.js";
import { definitionConflict, prepareFlat, prepareGroup, type FilterGroup, type Segment, type SegmentFormat } from "./model.js";
import type { SegmentEvaluator, SegmentRepository } from "./ports.js";
import { toSegmentView, type SegmentView } from "./view.js";

export const SEGMENT_NOT_FOUND = notFound("Segment not found");

/**
 * Renames a segment or replaces its rules: `filters` make it flat, `root` nested; a lone
 * `filterJoinOperator` changes how the top-level conditions combine.
 */
export class UpdateSegment {
  constructor(
    private readonly segments: SegmentRepository,
    private readonly evaluator: SegmentEvaluator,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly docsUrl: string,
  ) {}

  execute = async (actor: Actor, segmentId: string, command: UpdateSegmentCommand): Promise<Result<SegmentView>> => {
    const existing = await this.segments.find(actor.companyId, segmentId);
    if (!existing) return fail(SEGMENT_NOT_FOUND);
    if (command.filters && command.root) return fail(definitionConflict());
    if (command.name === undefined && !command.filters && !command.root && !command.filterJoinOperator) {
      return fail(badRequest("Nothing to update: provide name, filterJoinOperator, filters or root"));
    }

    const newId = () => this.ids.next("flt");
    let format: SegmentFormat = existing.format;
    let root: FilterGroup = existing.root;
    if (command.root) {
      const prepared = prepareGroup(command.root, "root", newId);
      if (prepared._tag === "Left") return prepared;
      [format, root] = ["nested", prepared.right];
    } else if (command.filters) {
      const join = command.filterJoinOperator ?? (existing.format === "flat" ? existing.root.joinOperator : "and");
      const prepared = prepareFlat(command.filters, join, newId);
      if (prepared._tag === "Left") return prepared;
      [format, root] = ["flat", prepared.right];
    } else if (command.filterJoinOperator) {
      root = { ...root, joinOperator: command.filterJoinOperator };
    }

    const now = this.clock.now();
    const segment: Segment = { ...existing, name: command.name ?? existing.name, format, root, updatedAt: now };
    const lists = await checkOwnedLists(this.segments, actor.companyId, root);
    if (lists._tag === "Left") return lists;
    const definition = await checkedDefinition(this.segments, { companyId: actor.companyId, segmentId, root, now, docsUrl: this.docsUrl });
    if (definition._tag === "Left") return definition;
    if (!(await this.segments.update(segment))) return fail(SEGMENT_NOT_FOUND);
    return ok(toSegmentView(segment, await this.evaluator.count(definition.right)));
  };
}
