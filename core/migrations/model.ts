import { badRequest, invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { DuplicateStrategy, SubscriberStatus } from "../subscribers/model.js";

/**
 * Migration runs: a company's contacts and content brought over from its previous email
 * provider (spec resource "Migration run").
 *
 * Life of a run: created `awaiting_approval` with what discovery found at the source; `start`
 * approves a selection of those resources and queues it; the job picks it up (`running`) and
 * imports it batch by batch (contacts through the subscriber import pipeline, campaigns and
 * templates as drafts) until every selected resource is done (`completed`), or the source
 * cannot be used any more (`failed`). Cancel ends a run at once unless it is running; a running
 * run is `cancel_requested` until the job sees it between two batches (`canceled`).
 */

export const MIGRATION_PROVIDERS = ["csv", "mailchimp"] as const;
export type MigrationProvider = (typeof MIGRATION_PROVIDERS)[number];

export const RUN_STATUSES = ["awaiting_approval", "queued", "running", "completed", "failed", "canceled", "cancel_requested"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Nothing more happens to a run in these states. */
export const isTerminal = (status: RunStatus): boolean => status === "completed" || status === "failed" || status === "canceled";

/**
 * What a source holds: `contacts` (a CSV file) and `audience` (a provider's list of contacts)
 * become contacts; `campaign` and `template` become draft campaigns and templates.
 */
export const RESOURCE_TYPES = ["contacts", "audience", "campaign", "template"] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
export const isContactResource = (type: ResourceType): boolean => type === "contacts" || type === "audience";

/** The source's credentials and data as given at creation: stored sealed, never returned. */
export type SourceConfig =
  { readonly provider: "csv"; readonly csv: string } | { readonly provider: "mailchimp"; readonly apiKey: string; readonly baseUrl: string | null };

export interface DiscoveredResource {
  /** Stable within the run: what `resourceIds` names. */
  readonly id: string;
  readonly type: ResourceType;
  /** Items the source reported when the run was created. */
  readonly count: number;
  /** The source's name for it (an audience's name), for people reading the plan. */
  readonly name: string;
}

export interface Discovery {
  readonly provider: MigrationProvider;
  readonly resources: readonly DiscoveredResource[];
}

/** Per-resource filters (`resourceOptions`), honoured only with a nonempty `resourceIds`. */
export interface ResourceOptions {
  /** Contact resources: import only contacts in these states (after mapping the source's status). */
  readonly statuses?: readonly SubscriberStatus[];
  /** Contact resources: what happens to contacts that already exist (default `merge`). */
  readonly duplicateStrategy?: DuplicateStrategy;
  /** Campaign and template resources: only items created at or after this ISO time. */
  readonly createdSince?: string;
}

export interface ApprovedPlan {
  readonly resourceIds: readonly string[];
  readonly resourceOptions: Readonly<Record<string, ResourceOptions>>;
  /** When the selection was approved; null while nothing is. */
  readonly approvedAt: Date | null;
}

/** How far the job got with one selected resource. */
export interface ResourceProgress {
  readonly id: string;
  readonly type: ResourceType;
  /** Items the source reported at discovery. */
  readonly total: number;
  /** Items read from the source so far: where the next batch starts. */
  readonly processed: number;
  /** Contacts handed to the subscriber import (its totalRows). */
  readonly queued: number;
  /** Drafts created (campaigns, templates). */
  readonly created: number;
  /** Items read but not imported (filtered out, not importable, or failed: see errors). */
  readonly skipped: number;
  readonly done: boolean;
  /** The subscriber import that holds a contact resource's rows. */
  readonly importId: string | null;
}

export interface Progress {
  /** Batches processed so far; tells a job step whether another step got there first. */
  readonly batches: number;
  readonly resources: readonly ResourceProgress[];
}

export interface MigrationReport {
  readonly subscribersQueued: number;
  readonly draftCampaignsCreated: number;
  /** No source of ours has importable sequences: always 0. */
  readonly draftSequencesCreated: number;
  /** No source of ours has transactional emails: always 0. */
  readonly draftTransactionalEmailsCreated: number;
  /** Templates created from the source's saved templates. */
  readonly templatesCreated: number;
}

export interface RunError {
  /** The resource it concerns, or null for the run as a whole. */
  readonly resourceId: string | null;
  readonly message: string;
  readonly at: Date;
}

/** The run keeps its first errors only. */
export const MAX_RUN_ERRORS = 100;

export interface MigrationRun {
  readonly id: string;
  readonly companyId: string;
  readonly provider: MigrationProvider;
  readonly status: RunStatus;
  readonly discovery: Discovery;
  readonly approvedPlan: ApprovedPlan;
  readonly progress: Progress;
  readonly report: MigrationReport;
  readonly errors: readonly RunError[];
  /** Goes up by one on every save: saves are conditional on it (optimistic concurrency). */
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly startedAt: Date | null;
  readonly completedAt: Date | null;
}

export const EMPTY_REPORT: MigrationReport = {
  subscribersQueued: 0,
  draftCampaignsCreated: 0,
  draftSequencesCreated: 0,
  draftTransactionalEmailsCreated: 0,
  templatesCreated: 0,
};

export const NO_PLAN: ApprovedPlan = { resourceIds: [], resourceOptions: {}, approvedAt: null };

export const SELECT_A_RESOURCE = "Select at least one resource to migrate: give its ID in resourceIds (see discovery.resources)";
export const cannotStart = (status: RunStatus) => `Migration run cannot be started in its current state (${status})`;

export function newRun(id: string, companyId: string, discovery: Discovery, plan: ApprovedPlan, now: Date): MigrationRun {
  return {
    id,
    companyId,
    provider: discovery.provider,
    status: "awaiting_approval",
    discovery,
    approvedPlan: plan,
    progress: { batches: 0, resources: [] },
    report: EMPTY_REPORT,
    errors: [],
    version: 0,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    completedAt: null,
  };
}

const CONTACT_OPTIONS = ["statuses", "duplicateStrategy"] as const;
const CONTENT_OPTIONS = ["createdSince"] as const;

/**
 * The plan that approves `resourceIds` (deduplicated, in the order given) with the options of
 * those resources: every ID must be discovered, and options must name discovered resources and
 * suit their type. Options of discovered resources left out of the selection are dropped.
 */
export function approve(
  discovery: Discovery,
  resourceIds: readonly string[],
  resourceOptions: Readonly<Record<string, ResourceOptions>>,
  now: Date,
): Result<ApprovedPlan> {
  const byId = new Map(discovery.resources.map((resource) => [resource.id, resource]));
  const selection = [...new Set(resourceIds)];
  const unknown = selection.filter((id) => !byId.has(id));
  if (unknown.length > 0) return fail(badRequest(`Unknown resource in resourceIds: ${unknown.join(", ")} (see discovery.resources)`));
  const options: Record<string, ResourceOptions> = {};
  for (const [id, given] of Object.entries(resourceOptions)) {
    const resource = byId.get(id);
    if (!resource) return fail(badRequest(`Unknown resource in resourceOptions: ${id} (see discovery.resources)`));
    const allowed: readonly string[] = isContactResource(resource.type) ? CONTACT_OPTIONS : CONTENT_OPTIONS;
    const misplaced = Object.keys(given).filter((name) => given[name as keyof ResourceOptions] !== undefined && !allowed.includes(name));
    if (misplaced.length > 0) {
      return fail(badRequest(`resourceOptions.${id}: ${misplaced.join(", ")} does not apply to a ${resource.type} resource (allowed: ${allowed.join(", ")})`));
    }
    if (selection.includes(id)) options[id] = given;
  }
  return ok({ resourceIds: selection, resourceOptions: options, approvedAt: now });
}

export type RunEvent =
  /** The user approves a selection (or the plan already approved) and asks for the import. */
  | { readonly type: "start"; readonly resourceIds?: readonly string[]; readonly resourceOptions?: Readonly<Record<string, ResourceOptions>> }
  | { readonly type: "cancel" }
  /** The job picks the run up. */
  | { readonly type: "begin" }
  /** Every selected resource is done. */
  | { readonly type: "complete" }
  /** The source cannot be used any more (bad credentials, repeated failures). */
  | { readonly type: "fail"; readonly error: string }
  /** The job saw the cancel request between two batches. */
  | { readonly type: "stop" };

const ended = (run: MigrationRun, status: RunStatus, now: Date): MigrationRun => ({ ...run, status, updatedAt: now, completedAt: now });

const refuse = (run: MigrationRun, event: RunEvent) => fail<MigrationRun>(invalidState(`Migration run is ${run.status}: cannot apply ${event.type}`));

/** Progress of the approved resources before the first batch. */
const startingProgress = (run: MigrationRun): Progress => ({
  batches: 0,
  resources: run.approvedPlan.resourceIds.map((id) => {
    const resource = run.discovery.resources.find((r) => r.id === id);
    return {
      id,
      type: resource?.type ?? "contacts",
      total: resource?.count ?? 0,
      processed: 0,
      queued: 0,
      created: 0,
      skipped: 0,
      done: false,
      importId: null,
    };
  }),
});

/**
 * The pure state machine of a run (spec, States and transitions: Migration run). `start` follows
 * the spec's table row by row: no resource selected (neither in resourceIds nor already in the
 * plan) is refused in any state; a queued or running run is returned unchanged (no new
 * execution, plan unchanged); a run that ended or is being canceled cannot start again; a run
 * awaiting approval approves resourceIds (when given) and is queued.
 */
export function transition(run: MigrationRun, event: RunEvent, now: Date): Result<MigrationRun> {
  const { status } = run;
  switch (event.type) {
    case "start": {
      const given = event.resourceIds ?? [];
      const selected = given.length > 0 ? given : run.approvedPlan.resourceIds;
      if (selected.length === 0) return fail(badRequest(SELECT_A_RESOURCE));
      if (status === "queued" || status === "running") return ok(run);
      if (status !== "awaiting_approval") return fail(invalidState(cannotStart(status)));
      if (given.length === 0) {
        return ok({ ...run, status: "queued", approvedPlan: { ...run.approvedPlan, approvedAt: run.approvedPlan.approvedAt ?? now }, updatedAt: now });
      }
      const plan = approve(run.discovery, given, event.resourceOptions ?? {}, now);
      if (plan._tag === "Left") return plan;
      return ok({ ...run, status: "queued", approvedPlan: plan.right, updatedAt: now });
    }
    case "cancel":
      if (status === "awaiting_approval" || status === "queued") return ok(ended(run, "canceled", now));
      if (status === "running") return ok({ ...run, status: "cancel_requested", updatedAt: now });
      if (status === "cancel_requested" || status === "canceled") return ok(run);
      return fail(invalidState(`Migration run is already ${status} and cannot be canceled`));
    case "begin":
      return status === "queued" ? ok({ ...run, status: "running", progress: startingProgress(run), startedAt: now, updatedAt: now }) : refuse(run, event);
    case "complete":
      return status === "running" ? ok(ended(run, "completed", now)) : refuse(run, event);
    case "fail":
      if (status !== "queued" && status !== "running" && status !== "cancel_requested") return refuse(run, event);
      return ok({ ...ended(run, "failed", now), errors: withError(run.errors, { resourceId: null, message: event.error, at: now }) });
    case "stop":
      return status === "cancel_requested" ? ok(ended(run, "canceled", now)) : refuse(run, event);
  }
}

/** The errors with one more, keeping the first MAX_RUN_ERRORS. */
export const withError = (errors: readonly RunError[], error: RunError): readonly RunError[] => (errors.length >= MAX_RUN_ERRORS ? errors : [...errors, error]);

/** The first selected resource not done yet; null when every one is. */
export const nextResource = (run: MigrationRun): ResourceProgress | null => run.progress.resources.find((resource) => !resource.done) ?? null;

/** The report as the progress stands: sums over the resources. */
export function reportOf(progress: Progress): MigrationReport {
  const sum = (types: readonly ResourceType[], field: "queued" | "created") =>
    progress.resources.filter((r) => types.includes(r.type)).reduce((total, r) => total + r[field], 0);
  return {
    ...EMPTY_REPORT,
    subscribersQueued: sum(["contacts", "audience"], "queued"),
    draftCampaignsCreated: sum(["campaign"], "created"),
    templatesCreated: sum(["template"], "created"),
  };
}

/** The run after one batch of `resource`: its progress replaced, the report recomputed, errors added. */
export function afterBatch(run: MigrationRun, resource: ResourceProgress, errors: readonly Omit<RunError, "at">[], now: Date): MigrationRun {
  const progress: Progress = {
    batches: run.progress.batches + 1,
    resources: run.progress.resources.map((r) => (r.id === resource.id ? resource : r)),
  };
  let allErrors = run.errors;
  for (const error of errors) allErrors = withError(allErrors, { ...error, at: now });
  return { ...run, progress, report: reportOf(progress), errors: allErrors, updatedAt: now };
}
