import type { Subscriber } from "../subscribers/model.js";
import type { ChunkOutcome, SubscriberImport } from "./model.js";
import { planChunk } from "./plan-chunk.js";
import type { ImportChunkWork } from "./ports.js";
import { readChunk, type ChunkRow } from "./rows.js";

/** What a chunk did, and the contacts it created (as written). */
export interface ChunkResult {
  readonly outcome: ChunkOutcome;
  readonly created: readonly Subscriber[];
}

/**
 * The chunk processor every import goes through (the job for API imports, the CLI for files):
 * one query finds the contacts the rows name, the rows are planned in memory, and the plan is
 * written in a few multi-row statements, all inside the caller's transaction.
 * Also gives the contacts the chunk created: once the transaction commits, they may be asked to confirm.
 */
export async function importChunk(
  subscriberImport: SubscriberImport,
  rows: readonly ChunkRow[],
  work: ImportChunkWork,
  newId: () => string,
  now: Date,
): Promise<ChunkResult> {
  const readings = readChunk(rows);
  const emails = new Set<string>();
  const externalIds = new Set<string>();
  for (const reading of readings) {
    if (reading.kind !== "contact") continue;
    emails.add(reading.contact.email);
    if (reading.contact.externalId) externalIds.add(reading.contact.externalId);
  }
  const existing = emails.size + externalIds.size > 0 ? await work.findContacts([...emails], [...externalIds]) : [];
  const { options } = subscriberImport;
  const plan = planChunk(readings, existing, { companyId: subscriberImport.companyId, strategy: options.duplicateStrategy, newId, now });
  if (plan.inserts.length + plan.updates.length > 0) {
    await work.writeContacts({ inserts: plan.inserts, updates: plan.updates, listIds: options.listIds }, now);
  }
  return { outcome: plan.outcome, created: plan.inserts.map((insert) => insert.subscriber) };
}
