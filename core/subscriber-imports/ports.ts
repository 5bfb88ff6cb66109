import type { JobRequest } from "../ports/job-queue.js";
import type { Subscriber } from "../subscribers/model.js";
import type { SubscriberImport } from "./model.js";
import type { ContactWrite } from "./plan-chunk.js";
import type { ChunkRow } from "./rows.js";
import { token } from "../shared/token.js";

/** Rows waiting in the database to be imported by the job. */
export interface StoredChunk {
  /** Position in the import, from 0. */
  readonly index: number;
  readonly rows: readonly ChunkRow[];
}

/** The lists and tags a chunk's write gives existing contacts for the first time, by contact ID. */
export interface NewJoins {
  readonly lists: ReadonlyMap<string, readonly string[]>;
  readonly tags: ReadonlyMap<string, readonly string[]>;
}

/** The contact writes of one chunk, inside the transaction that holds the import. */
export interface ImportChunkWork {
  /** The company's contacts with any of these (lower-cased) emails or external IDs, in one query. */
  findContacts(emails: readonly string[], externalIds: readonly string[]): Promise<Subscriber[]>;
  /**
   * Saves the changed contacts, inserts the new ones in multi-row statements, gives them their
   * tags (creating missing tags) and makes every one of them a member of `listIds`.
   */
  writeContacts(
    changes: { readonly inserts: readonly ContactWrite[]; readonly updates: readonly ContactWrite[]; readonly listIds: readonly string[] },
    now: Date,
  ): Promise<void>;
  /**
   * What writing `updates` with `listIds` will newly give these existing contacts, read before the
   * write: by contact ID, the lists they are not members of yet and the tags they do not carry yet.
   */
  findNewJoins(updates: readonly ContactWrite[], listIds: readonly string[]): Promise<NewJoins>;
  /**
   * Starts these new contacts' opt-ins, unconfirmed, and queues `job` (which emails them), in the
   * chunk's transaction: neither is ever written without the contacts, nor the contacts without them.
   */
  startOptIns(subscriberIds: readonly string[], job: JobRequest, now: Date): Promise<void>;
  /** Queues a job in the chunk's transaction: it exists exactly when the chunk's contacts do. */
  enqueue(job: JobRequest, now: Date): Promise<void>;
}

/** One job step's work: the next stored chunk, and marking it done with the import's progress. */
export interface ImportStepWork extends ImportChunkWork {
  /** The first chunk not yet done, or null when every chunk is done. */
  nextChunk(): Promise<StoredChunk | null>;
  /** The position of the first chunk not yet done, without reading its rows (which may be unreadable). */
  nextChunkIndex(): Promise<number | null>;
  markDone(index: number): Promise<void>;
}

export interface SubscriberImportRepository {
  /**
   * Inserts the import and its stored chunks in one transaction, unless the company already has
   * an import with its request key: then returns that one, untouched.
   */
  insertOrFind(
    subscriberImport: SubscriberImport,
    chunks: readonly StoredChunk[],
  ): Promise<{ readonly subscriberImport: SubscriberImport; readonly created: boolean }>;
  find(companyId: string, id: string): Promise<SubscriberImport | null>;
  findByRequestKey(companyId: string, requestKey: string): Promise<SubscriberImport | null>;
  /**
   * Runs `work` in one transaction with the import locked (concurrent steps of one import wait
   * for each other) and saves the import it returns, with everything `work` wrote; null from
   * `work` saves nothing. Resolves to the import after the step (null when it does not exist).
   */
  step(
    companyId: string,
    id: string,
    work: (subscriberImport: SubscriberImport, tx: ImportStepWork) => Promise<SubscriberImport | null>,
  ): Promise<SubscriberImport | null>;
}
export const SubscriberImportRepository = token<SubscriberImportRepository>("lifecycle.SubscriberImportRepository");
