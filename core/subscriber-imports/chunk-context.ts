import { optInAsked } from "../opt-in/model.js";
import type { Automations } from "../ports/automations.js";
import type { TrackingSettingsRepository } from "../tracking-settings/ports.js";
import type { SubscriberImport } from "./model.js";

/** What a chunk's transaction needs decided before it starts. */
export interface ChunkContext {
  /**
   * Double opt-in applies (the import's optInMode, or the company's setting for `default`): the
   * active contacts the chunk creates start unconfirmed, with the job that emails them.
   */
  readonly askToConfirm: boolean;
  /** The fields and custom attributes automations watch: their changes go to a job queued with the chunk. */
  readonly watchedFields: readonly string[];
}

/** Reads a chunk's context before each chunk's transaction: on SQLite, a read on another connection would wait for it. */
export class ReadChunkContext {
  constructor(
    private readonly settings: TrackingSettingsRepository,
    private readonly automations: Automations,
  ) {}

  execute = async (subscriberImport: SubscriberImport): Promise<ChunkContext> => {
    const mode = subscriberImport.options.optInMode;
    const askToConfirm = mode !== "confirmed" && optInAsked(mode, await this.settings.find(subscriberImport.companyId));
    return { askToConfirm, watchedFields: await this.automations.watchedFields(subscriberImport.companyId) };
  };
}
