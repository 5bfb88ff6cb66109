import type { DiscoveredResource, MigrationRun, RunStatus, SourceConfig } from "./model.js";
import { token } from "../shared/token.js";

/** Why a source could not be used. */
export type SourceFailure =
  /** The source refused the credentials (or they cannot be right): retrying will not help. */
  | "credentials"
  /** The source did not answer properly (network, time limit, 5xx, rate limit): worth retrying. */
  | "unavailable"
  /** What was given cannot be read (a malformed CSV). */
  | "invalid";

/** A source that cannot be used; `message` is readable by the customer and never holds a credential. */
export class SourceError extends Error {
  override readonly name = "SourceError";
  constructor(
    readonly reason: SourceFailure,
    message: string,
  ) {
    super(message);
  }
}

/** One batch read from a resource, from an offset. */
export interface SourcePage<T> {
  /** The importable items of the batch. */
  readonly items: readonly T[];
  /** Source items the batch consumed (importable or not): the next batch starts this much further. */
  readonly read: number;
  /** True when nothing follows. */
  readonly done: boolean;
}

/** A campaign of the source, to become a draft campaign. */
export interface SourceCampaign {
  /** The source's ID: one draft per source item and run. */
  readonly externalId: string;
  readonly name: string;
  readonly subject: string | null;
  readonly previewText: string | null;
  readonly html: string | null;
}

/** A saved template of the source, to become a template. */
export interface SourceTemplate {
  readonly externalId: string;
  readonly name: string;
  /** Null when the source holds no content for it. */
  readonly html: string | null;
}

export interface ContentFilter {
  /** ISO time: only items created at or after it. */
  readonly createdSince: string | null;
}

/**
 * A provider's account (or a file) seen as resources: discovery lists them, and one reader per
 * resource type returns them batch by batch from an offset, so a run can stop between batches
 * and resume where it was. Every method rejects with SourceError when the source cannot be used.
 */
export interface MigrationSource {
  discover(): Promise<DiscoveredResource[]>;
  /** Contacts as subscriber import rows (email, firstName, lastName, status, tags, customAttributes, createdAt). */
  readContacts(resource: DiscoveredResource, offset: number, limit: number): Promise<SourcePage<Record<string, unknown>>>;
  readCampaigns(resource: DiscoveredResource, offset: number, limit: number, filter: ContentFilter): Promise<SourcePage<SourceCampaign>>;
  readTemplates(resource: DiscoveredResource, offset: number, limit: number, filter: ContentFilter): Promise<SourcePage<SourceTemplate>>;
}

/** Opens the source a configuration names; throws SourceError("invalid" | "credentials") when it cannot be right. */
export interface MigrationSources {
  connect(config: SourceConfig): MigrationSource;
}
export const MigrationSources = token<MigrationSources>("lifecycle.MigrationSources");

/** A draft campaign made from a source's campaign (the campaigns capability takes them over). */
export interface CampaignDraft {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly subject: string | null;
  readonly previewText: string | null;
  readonly html: string | null;
  /** The provider it came from and its ID there. */
  readonly source: string;
  readonly externalId: string;
  readonly createdAt: Date;
}

export interface CampaignDraftRepository {
  exists(companyId: string, id: string): Promise<boolean>;
  insert(draft: CampaignDraft): Promise<void>;
}
export const CampaignDraftRepository = token<CampaignDraftRepository>("lifecycle.CampaignDraftRepository");

/** An entry of a run's ledger of drafts: which source item became which draft. */
export interface DraftClaim {
  readonly runId: string;
  readonly companyId: string;
  readonly resourceId: string;
  readonly sourceRef: string;
  /** The ID the draft gets (or already got). */
  readonly entityId: string;
}

export interface MigrationRunRepository {
  /** Stores a new run with its source configuration, sealed. */
  insert(run: MigrationRun, sealedSource: string): Promise<void>;
  find(companyId: string, id: string): Promise<MigrationRun | null>;
  /** Which of `companyIds` holds run `id`, if one does. */
  findOwner(companyIds: readonly string[], id: string): Promise<string | null>;
  /** The sealed source configuration of the run. */
  sealedSource(companyId: string, id: string): Promise<string | null>;
  /**
   * Saves the run's changing fields if its status and version are still `expected` (the ones
   * read), and moves its version one up; false when something else saved it in between.
   */
  save(run: MigrationRun, expected: { readonly status: RunStatus; readonly version: number }): Promise<boolean>;
  /**
   * Records that the source item becomes `entityId`, unless the run recorded it already: resolves
   * to the recorded entity and whether this call recorded it. Recording before creating makes a
   * repeated batch create each draft once.
   */
  claimDraft(claim: DraftClaim, now: Date): Promise<{ readonly entityId: string; readonly claimed: boolean }>;
  /** Drafts recorded for one resource of the run. */
  countDrafts(runId: string, resourceId: string): Promise<number>;
}
export const MigrationRunRepository = token<MigrationRunRepository>("lifecycle.MigrationRunRepository");
