import type { ExportRun } from "../../../core/data-exports/export-run.js";
import type { DataExport, EventCursor } from "../../../core/data-exports/model.js";
import type { DataExportRepository, EventRow, ExportSource, ExportState, ExportStep, RunPage } from "../../../core/data-exports/ports.js";
import type { CustomEventRecord, EmailEventRecord, SubscriberRecord } from "../../../core/data-exports/records.js";
import type { JobQueue, JobRequest } from "../../../core/ports/job-queue.js";

/**
 * In-process stand-ins for the data export's database ports, for core tests. `crashed` makes
 * every call reject, as if the process had died, until it is set back to false.
 */
export class MemoryExportStore implements DataExportRepository {
  readonly exports = new Map<string, DataExport>();
  readonly runs = new Map<string, ExportRun>();
  crashed = false;
  /** Called before each change is saved; may set `crashed` to simulate a death at that point. */
  beforeSave: ((state: ExportState, next: NonNullable<ExportStep<unknown>["save"]>) => void) | null = null;

  private alive(): void {
    if (this.crashed) throw new Error("the process died");
  }

  async create(dataExport: DataExport, run: ExportRun): Promise<void> {
    this.alive();
    this.exports.set(dataExport.id, dataExport);
    this.runs.set(run.id, run);
  }

  async find(companyId: string, id: string): Promise<DataExport | null> {
    this.alive();
    const found = this.exports.get(id);
    return found && found.companyId === companyId && !found.deletedAt ? found : null;
  }

  async list(companyId: string): Promise<DataExport[]> {
    this.alive();
    return [...this.exports.values()].filter((e) => e.companyId === companyId && !e.deletedAt);
  }

  async change<T>(companyId: string, id: string, decide: (state: ExportState) => ExportStep<T>): Promise<T | null> {
    this.alive();
    const dataExport = this.exports.get(id);
    if (!dataExport || dataExport.companyId !== companyId) return null;
    const activeRun = [...this.runs.values()].find((run) => run.dataExportId === id && (run.status === "queued" || run.status === "running")) ?? null;
    const state = { dataExport, activeRun };
    const step = decide(state);
    if (step.save) {
      this.beforeSave?.(state, step.save);
      this.alive();
      this.exports.set(id, step.save.dataExport);
      for (const run of step.save.runs ?? []) this.runs.set(run.id, run);
      const active = [...this.runs.values()].filter((run) => run.dataExportId === id && (run.status === "queued" || run.status === "running"));
      if (active.length > 1) throw new Error("two active runs");
    }
    return step.value;
  }

  async findRun(companyId: string, dataExportId: string, runId: string): Promise<ExportRun | null> {
    this.alive();
    const run = this.runs.get(runId);
    return run && run.companyId === companyId && run.dataExportId === dataExportId ? run : null;
  }

  async listRuns(companyId: string, dataExportId: string, page: RunPage): Promise<ExportRun[]> {
    this.alive();
    return [...this.runs.values()]
      .filter((run) => run.companyId === companyId && run.dataExportId === dataExportId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
      .slice(0, page.limit);
  }

  async findDue(now: Date, limit: number): Promise<Array<{ companyId: string; id: string }>> {
    this.alive();
    return [...this.exports.values()]
      .filter((e) => !e.deletedAt && e.isEnabled && (e.status === "idle" || e.status === "failed") && e.nextRunAt !== null && e.nextRunAt <= now)
      .slice(0, limit)
      .map((e) => ({ companyId: e.companyId, id: e.id }));
  }

  async findActiveRuns(limit: number): Promise<ExportRun[]> {
    this.alive();
    return [...this.runs.values()].filter((run) => run.status === "queued" || run.status === "running").slice(0, limit);
  }
}

const after = (row: { recordedAt: string; id: string }, cursor: EventCursor): boolean => {
  const at = cursor.at.toISOString();
  return row.recordedAt > at || (row.recordedAt === at && row.id > cursor.id);
};

/** Events and subscribers held in arrays, read in the order the database adapter reads them. */
export class MemorySource implements ExportSource {
  email: Array<EventRow<EmailEventRecord>> = [];
  custom: Array<EventRow<CustomEventRecord>> = [];
  people: SubscriberRecord[] = [];
  /** Pages read, to check that nothing reads a whole dataset at once. */
  readonly pageSizes: number[] = [];

  private page<R>(rows: Array<EventRow<R>>, cursor: EventCursor, before: Date, limit: number): Array<EventRow<R>> {
    this.pageSizes.push(limit);
    const end = before.toISOString();
    return rows
      .filter((row) => after(row, cursor) && row.recordedAt < end)
      .sort((a, b) => (a.recordedAt < b.recordedAt ? -1 : a.recordedAt > b.recordedAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit);
  }

  async emailEvents(_companyId: string, cursor: EventCursor, before: Date, limit: number) {
    return this.page(this.email, cursor, before, limit);
  }

  async customEvents(_companyId: string, cursor: EventCursor, before: Date, limit: number) {
    return this.page(this.custom, cursor, before, limit);
  }

  async subscribers(_companyId: string, afterId: string | null, limit: number) {
    this.pageSizes.push(limit);
    return [...this.people]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .filter((s) => afterId === null || s.id > afterId)
      .slice(0, limit);
  }
}

/** A job queue that only records what was enqueued. */
export class RecordingJobQueue implements JobQueue {
  readonly jobs: JobRequest[] = [];
  async enqueue(job: JobRequest): Promise<string> {
    this.jobs.push(job);
    return `job_${this.jobs.length}`;
  }
}

let sequence = 0;
/** IDs in creation order (so sorting by ID is sorting by creation). */
export const sequentialIds = { next: (prefix: string) => `${prefix}_${String(++sequence).padStart(8, "0")}` };

export function emailEvent(id: string, recordedAt: string, overrides: Partial<EmailEventRecord> = {}): EventRow<EmailEventRecord> {
  const record: EmailEventRecord = {
    id,
    type: "open",
    occurredAt: recordedAt,
    recordedAt,
    emailSendId: `send_${id}`,
    subscriberId: "sub_1",
    recipientEmail: "ada@example.com",
    emailType: "campaign",
    subject: "Hello",
    campaignId: "cmp_1",
    transactionalEmailId: null,
    automationId: null,
    templateId: null,
    isTest: false,
    bounceType: null,
    bounceSubType: null,
    url: null,
    machine: false,
    machineReason: null,
    userAgent: null,
    ip: null,
    ...overrides,
  };
  return { recordedAt, id, record };
}
