import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import { checkedDefinition } from "../segments/checked-definition.js";
import { definitionConflict, prepareFlat, prepareGroup, type FilterGroup } from "../segments/model.js";
import type { SegmentRepository } from "../segments/ports.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { normalizeTags } from "../subscribers/save-contact.js";
import { advanceJob } from "./advance-operation.js";
import type { AudienceInput, StartOperationCommand } from "./commands.js";
import { EVERYONE, MAX_AUDIENCE_SUBSCRIBER_IDS, MAX_OPERATION_TAGS, type OperationAudience } from "./model.js";
import type { SubscriberOperationRepository } from "./ports.js";
import { toOperationView, type OperationView } from "./view.js";

/**
 * Starts an operation in the background and answers at once (202). The request key makes it
 * idempotent per company: the same key returns the operation it started first.
 */
export class StartOperation {
  constructor(
    private readonly operations: SubscriberOperationRepository,
    private readonly segments: SegmentRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly docsUrl: string,
  ) {}

  execute = async (actor: Actor, command: StartOperationCommand): Promise<Result<OperationView>> => {
    if (command.tags.length === 0) return fail(badRequest("Provide at least one tag in tags"));
    if (command.tags.length > MAX_OPERATION_TAGS) return fail(badRequest(`An operation adds at most ${MAX_OPERATION_TAGS} tags (got ${command.tags.length})`));
    const tags = normalizeTags(command.tags);
    if (tags._tag === "Left") return tags;

    const id = this.ids.next("sop");
    const now = this.clock.now();
    const audience = command.audience ? await this.audienceOf(actor.companyId, id, command.audience, now) : ok(EVERYONE);
    if (audience._tag === "Left") return audience;

    const { operation, created } = await this.operations.insertOrFind({
      id,
      companyId: actor.companyId,
      kind: command.kind,
      requestKey: command.requestKey,
      status: "queued",
      params: { tags: tags.right, triggerAutomations: command.triggerAutomations ?? false, audience: audience.right },
      total: 0,
      processed: 0,
      succeeded: 0,
      failed: 0,
      error: null,
      failures: [],
      selectionComplete: false,
      cancelRequested: false,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      expiresAt: null,
    });
    // A repeated request for an operation still queued enqueues its step again, in case the
    // process that created it stopped before it could (a duplicate step does no harm).
    if (created || operation.status === "queued") await this.jobs.enqueue(advanceJob(operation));
    return ok(toOperationView(operation));
  };

  private async audienceOf(companyId: string, operationId: string, input: AudienceInput, now: Date): Promise<Result<OperationAudience>> {
    const subscriberIds = input.subscriberIds ? [...new Set(input.subscriberIds)] : null;
    if (subscriberIds && subscriberIds.length > MAX_AUDIENCE_SUBSCRIBER_IDS) {
      return fail(
        badRequest(
          `audience.subscriberIds holds at most ${MAX_AUDIENCE_SUBSCRIBER_IDS} IDs (got ${subscriberIds.length}); use filters, root or listId for larger audiences`,
        ),
      );
    }
    if (input.listId && !(await this.operations.listExists(companyId, input.listId))) return fail(notFound("List not found"));
    const filter = await this.filterOf(companyId, operationId, input, now);
    if (filter._tag === "Left") return filter;
    const search = input.search?.trim() || null;
    return ok({ subscriberIds, listId: input.listId ?? null, search, activeOnly: input.activeOnly ?? false, filter: filter.right });
  }

  /** The segment filter of the audience, checked as a segment's would be, with the trees it references. */
  private async filterOf(companyId: string, operationId: string, input: AudienceInput, now: Date): Promise<Result<OperationAudience["filter"]>> {
    if (input.filters && input.root) return fail(definitionConflict());
    if (!input.filters && !input.root) return ok(null);
    const newId = () => this.ids.next("flt");
    const root: Result<FilterGroup> = input.root
      ? prepareGroup(input.root, "audience.root", newId)
      : prepareFlat(input.filters ?? [], input.filterJoinOperator ?? "and", newId);
    if (root._tag === "Left") return root;
    const definition = await checkedDefinition(this.segments, { companyId, segmentId: operationId, root: root.right, now, docsUrl: this.docsUrl });
    if (definition._tag === "Left") return definition;
    return ok({ root: root.right, referenced: definition.right.referenced });
  }
}
