import * as t from "io-ts";
import { MAX_HTML, MAX_SUBJECT } from "../emails/commands.js";
import type { Template } from "../emails/model.js";
import type { TemplateRepository } from "../emails/ports.js";
import { newContentFrom } from "../emails/template-content.js";
import { defineJob, type WorkOf } from "../jobs/job-definition.js";
import { onLastAttempt } from "../jobs/last-attempt.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Job, JobQueue, JobRequest } from "../ports/job-queue.js";
import type { SecretBox } from "../ports/secret-box.js";
import { must } from "../shared/result.js";
import type { DirectImport } from "../subscriber-imports/direct-import.js";
import { CHUNK_SIZE, type SubscriberImport } from "../subscriber-imports/model.js";
import type { SubscriberImportRepository } from "../subscriber-imports/ports.js";
import { SUBSCRIBER_STATUSES, type SubscriberStatus } from "../subscribers/model.js";
import {
  afterBatch,
  isContactResource,
  isTerminal,
  nextResource,
  transition,
  type DiscoveredResource,
  type MigrationRun,
  type ResourceOptions,
  type ResourceProgress,
  type RunError,
  type RunEvent,
} from "./model.js";
import {
  SourceError,
  type CampaignDraftRepository,
  type MigrationRunRepository,
  type MigrationSource,
  type MigrationSources,
  type SourcePage,
} from "./ports.js";
import { openSource } from "./sealed-source.js";

/** The job that advances one run by one batch. */
export const ADVANCE_MIGRATION_JOB = "migrations.advance";
/** Attempts of one step (the queue backs off between them) before the run fails. */
export const STEP_ATTEMPTS = 5;
/** Contacts read and imported per step: one subscriber import chunk. */
export const CONTACT_BATCH = CHUNK_SIZE;
/** Campaigns or templates per step (each may take a request of its own for its content). */
export const DRAFT_BATCH = 10;

export const AdvanceMigrationJob = defineJob({
  type: ADVANCE_MIGRATION_JOB,
  company: "required",
  payload: t.type({ runId: t.string }),
  maxAttempts: STEP_ATTEMPTS,
});

export const advanceMigrationJob = (run: Pick<MigrationRun, "id" | "companyId">): JobRequest =>
  AdvanceMigrationJob.request({ runId: run.id }, { companyId: run.companyId });

/** The first step of a run: at most one waits per run, so asking again to start a queued run enqueues nothing new. */
export const startMigrationJob = (run: Pick<MigrationRun, "id" | "companyId">): JobRequest =>
  AdvanceMigrationJob.request({ runId: run.id }, { companyId: run.companyId, singletonKey: `${ADVANCE_MIGRATION_JOB}:start:${run.id}` });

type BatchError = Omit<RunError, "at">;
interface BatchOutcome {
  readonly progress: ResourceProgress;
  readonly errors: readonly BatchError[];
}

/** A page that read nothing ends the resource too, whatever the source says (no step repeats forever). */
const finished = (page: SourcePage<unknown>): boolean => page.done || page.read === 0;
const expected = (run: MigrationRun) => ({ status: run.status, version: run.version });
const clip = (text: string | null, max: number): string | null => (text === null ? null : text.trim().slice(0, max).trim() || null);
const statusOf = (row: Record<string, unknown>): SubscriberStatus =>
  SUBSCRIBER_STATUSES.includes(row.status as SubscriberStatus) ? (row.status as SubscriberStatus) : "active";

/**
 * One step of a run: a queued run starts; a running one imports the next batch of its first
 * resource not done and saves its progress, report and errors; once every resource is done it
 * completes. A run whose cancel was requested is canceled before any further batch. Then the next
 * step is enqueued. Contacts go through the subscriber import pipeline (one import per resource,
 * chunk by chunk); campaigns and templates become drafts, each recorded in the run's ledger before
 * it is created, so a batch that runs again after a crash creates nothing twice.
 */
export class AdvanceMigration {
  constructor(
    private readonly runs: MigrationRunRepository,
    private readonly sources: MigrationSources,
    private readonly box: SecretBox,
    private readonly imports: SubscriberImportRepository,
    private readonly directImport: DirectImport,
    private readonly templates: TemplateRepository,
    private readonly campaigns: CampaignDraftRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /**
   * The job handler. Credentials the source refuses (or a source that cannot be read) fail the run
   * at once; other errors are retried by the queue, and fail the run on the step's last attempt.
   */
  runJob = ({ companyId, payload: { runId } }: WorkOf<typeof AdvanceMigrationJob>, job: Job): Promise<void> =>
    onLastAttempt(
      job,
      async () => {
        try {
          await this.execute(companyId, runId);
        } catch (error) {
          if (!(error instanceof SourceError) || error.reason === "unavailable") throw error;
          await this.failRun(companyId, runId, error.message);
        }
      },
      async (error) => {
        const reason = error instanceof SourceError ? `: ${error.message}` : "";
        await this.failRun(companyId, runId, `The migration stopped after repeated errors${reason}; what was imported before stays`);
      },
    );

  /** Runs one step; resolves to the run after it (null when it does not exist or another step got there first). */
  execute = async (companyId: string, runId: string): Promise<MigrationRun | null> => {
    let run = await this.runs.find(companyId, runId);
    if (!run) return null;
    if (run.status === "cancel_requested") return this.move(run, { type: "stop" });
    if (run.status === "queued") {
      run = await this.move(run, { type: "begin" });
      if (!run) return null;
    }
    if (run.status !== "running") return run;

    const resource = nextResource(run);
    if (!resource) return this.move(run, { type: "complete" });
    const saved = await this.saveBatch(run, await this.processBatch(run, resource));
    if (saved && !isTerminal(saved.status)) await this.jobs.enqueue(advanceMigrationJob(saved));
    return saved;
  };

  /** Applies a status event; when something else saved the run meanwhile (a cancel), the next step looks again. */
  private async move(run: MigrationRun, event: RunEvent): Promise<MigrationRun | null> {
    const next = must(transition(run, event, this.clock.now()));
    if (await this.runs.save(next, expected(run))) return { ...next, version: run.version + 1 };
    const fresh = await this.runs.find(run.companyId, run.id);
    if (fresh && !isTerminal(fresh.status) && fresh.status !== "awaiting_approval") await this.jobs.enqueue(advanceMigrationJob(fresh));
    return null;
  }

  /**
   * Saves a batch's progress. A cancel saved meanwhile only changed the status: the progress is
   * saved onto it. When another step saved a batch first (a job that ran twice), this one's is
   * dropped and nothing follows from it (its drafts are in the ledger, its contacts matched by email).
   */
  private async saveBatch(before: MigrationRun, after: MigrationRun): Promise<MigrationRun | null> {
    let base = before;
    let candidate = after;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await this.runs.save(candidate, expected(base))) return { ...candidate, version: base.version + 1 };
      const fresh = await this.runs.find(before.companyId, before.id);
      if (!fresh || fresh.progress.batches !== before.progress.batches || (fresh.status !== "running" && fresh.status !== "cancel_requested")) return null;
      base = fresh;
      candidate = { ...fresh, progress: after.progress, report: after.report, errors: after.errors, updatedAt: after.updatedAt };
    }
    throw new Error(`migration run ${before.id} kept changing while its batch was saved`);
  }

  private async processBatch(run: MigrationRun, progress: ResourceProgress): Promise<MigrationRun> {
    const resource = run.discovery.resources.find((r) => r.id === progress.id);
    if (!resource) {
      return afterBatch(
        run,
        { ...progress, done: true },
        [{ resourceId: progress.id, message: "The resource is not in the run's discovery" }],
        this.clock.now(),
      );
    }
    const sealed = await this.runs.sealedSource(run.companyId, run.id);
    if (!sealed) throw new Error(`migration run ${run.id} has no source`);
    const source = this.sources.connect(openSource(this.box, run.id, sealed));
    const options = run.approvedPlan.resourceOptions[resource.id] ?? {};
    const outcome = isContactResource(resource.type)
      ? await this.importContacts(run, progress, resource, options, source)
      : resource.type === "campaign"
        ? await this.importCampaigns(run, progress, resource, options, source)
        : await this.importTemplates(run, progress, resource, options, source);
    return afterBatch(run, outcome.progress, outcome.errors, this.clock.now());
  }

  /** One batch of contacts into the resource's subscriber import (started with the first batch, finished with the last). */
  private async importContacts(
    run: MigrationRun,
    progress: ResourceProgress,
    resource: DiscoveredResource,
    options: ResourceOptions,
    source: MigrationSource,
  ): Promise<BatchOutcome> {
    const page = await source.readContacts(resource, progress.processed, CONTACT_BATCH);
    const statuses = options.statuses;
    const rows = statuses ? page.items.filter((row) => statuses.includes(statusOf(row))) : page.items;
    let current: SubscriberImport | null;
    if (progress.importId) {
      current = await this.imports.find(run.companyId, progress.importId);
      if (!current) throw new Error(`subscriber import ${progress.importId} of migration run ${run.id} vanished`);
    } else {
      const started = await this.directImport.start(run.companyId, {
        fileName: `${run.provider}: ${resource.name}`.slice(0, 255),
        duplicateStrategy: options.duplicateStrategy ?? "merge",
        // An audience's contacts join a list of its name (created when missing).
        lists: resource.type === "audience" ? [resource.name] : [],
        // Contacts brought from another platform subscribed there: they are not asked again.
        optInMode: "confirmed",
      });
      if (started._tag === "Left") {
        const skipped = progress.skipped + page.read;
        return {
          progress: { ...progress, processed: progress.processed + page.read, skipped, done: true },
          errors: [{ resourceId: resource.id, message: `The contacts could not be imported: ${started.left.message}` }],
        };
      }
      current = started.right;
    }
    // A step that ran again after the import finished has nothing left to add.
    if (current.status === "running") {
      if (rows.length > 0) current = await this.directImport.addChunk(current, rows, new Set());
      if (finished(page)) current = await this.directImport.finish(current);
    }
    return {
      progress: {
        ...progress,
        processed: progress.processed + page.read,
        queued: current.totalRows,
        skipped: progress.skipped + page.read - rows.length,
        done: finished(page),
        importId: current.id,
      },
      errors: [],
    };
  }

  /** One batch of campaigns as draft campaigns (a campaign whose HTML is too large is kept without it). */
  private async importCampaigns(
    run: MigrationRun,
    progress: ResourceProgress,
    resource: DiscoveredResource,
    options: ResourceOptions,
    source: MigrationSource,
  ): Promise<BatchOutcome> {
    const page = await source.readCampaigns(resource, progress.processed, DRAFT_BATCH, { createdSince: options.createdSince ?? null });
    const errors: BatchError[] = [];
    for (const campaign of page.items) {
      const name = clip(campaign.name, 255) ?? clip(campaign.subject, 255) ?? `Campaign ${campaign.externalId}`;
      let html = campaign.html?.trim() ? campaign.html : null;
      if (html && html.length > MAX_HTML) {
        errors.push({
          resourceId: resource.id,
          message: `Campaign '${name}' (${campaign.externalId}): its HTML is longer than ${MAX_HTML} characters; the draft was created without it`,
        });
        html = null;
      }
      await this.createOnce(
        run,
        resource.id,
        campaign.externalId,
        "cmp",
        (id) => this.campaigns.exists(run.companyId, id),
        (id) =>
          this.campaigns.insert({
            id,
            companyId: run.companyId,
            name,
            subject: clip(campaign.subject, MAX_SUBJECT),
            previewText: clip(campaign.previewText, MAX_SUBJECT),
            html,
            source: run.provider,
            externalId: campaign.externalId,
            createdAt: this.clock.now(),
          }),
      );
    }
    const created = await this.runs.countDrafts(run.id, resource.id);
    return {
      progress: {
        ...progress,
        processed: progress.processed + page.read,
        created,
        skipped: progress.skipped + page.read - page.items.length,
        done: finished(page),
      },
      errors,
    };
  }

  /** One batch of saved templates as templates (labelled with the provider); one without content is skipped with an error. */
  private async importTemplates(
    run: MigrationRun,
    progress: ResourceProgress,
    resource: DiscoveredResource,
    options: ResourceOptions,
    source: MigrationSource,
  ): Promise<BatchOutcome> {
    const page = await source.readTemplates(resource, progress.processed, DRAFT_BATCH, { createdSince: options.createdSince ?? null });
    const errors: BatchError[] = [];
    let skipped = page.read - page.items.length;
    for (const template of page.items) {
      const name = clip(template.name, 255) ?? `Template ${template.externalId}`;
      const html = template.html?.trim() ?? "";
      const content = html.length > MAX_HTML ? null : newContentFrom({ subject: name, html });
      if (!html || !content || content._tag === "Left") {
        skipped += 1;
        const why = !html ? "the source returned no content for it" : `its HTML is longer than ${MAX_HTML} characters`;
        errors.push({ resourceId: resource.id, message: `Template '${name}' (${template.externalId}) was not imported: ${why}` });
        continue;
      }
      const body = content.right;
      await this.createOnce(
        run,
        resource.id,
        template.externalId,
        "tpl",
        async (id) => Boolean(await this.templates.findIncludingDeleted(run.companyId, id)),
        async (id) => {
          const now = this.clock.now();
          const created: Template = { id, companyId: run.companyId, name, ...body, labels: [run.provider], deletedAt: null, createdAt: now, updatedAt: now };
          await this.templates.insert(created);
        },
      );
    }
    const created = await this.runs.countDrafts(run.id, resource.id);
    return { progress: { ...progress, processed: progress.processed + page.read, created, skipped: progress.skipped + skipped, done: finished(page) }, errors };
  }

  /** Creates the draft of a source item unless this run created it already (the ledger is written first). */
  private async createOnce(
    run: MigrationRun,
    resourceId: string,
    sourceRef: string,
    prefix: string,
    exists: (id: string) => Promise<boolean>,
    create: (id: string) => Promise<void>,
  ): Promise<void> {
    const claim = await this.runs.claimDraft(
      { runId: run.id, companyId: run.companyId, resourceId, sourceRef, entityId: this.ids.next(prefix) },
      this.clock.now(),
    );
    if (!claim.claimed && (await exists(claim.entityId))) return;
    await create(claim.entityId);
  }

  private async failRun(companyId: string, runId: string, error: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const run = await this.runs.find(companyId, runId);
      if (!run || (run.status !== "queued" && run.status !== "running" && run.status !== "cancel_requested")) return;
      if (await this.runs.save(must(transition(run, { type: "fail", error }, this.clock.now())), expected(run))) return;
    }
  }
}
