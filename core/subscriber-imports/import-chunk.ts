import { askImportedContactsJob } from "../opt-in/ask-imported-contacts.js";
import { recordAttributeGoalsJob, watchedChanges, type WatchedChanges } from "../sequences/attribute-goal-jobs.js";
import { startSequencesJob } from "../sequences/trigger-jobs.js";
import type { Subscriber } from "../subscribers/model.js";
import type { ChunkContext } from "./chunk-context.js";
import type { ChunkOutcome, SubscriberImport } from "./model.js";
import { planChunk, type ContactWrite } from "./plan-chunk.js";
import type { ImportChunkWork, NewJoins } from "./ports.js";
import { readChunk, type ChunkRow } from "./rows.js";

const NO_JOINS: NewJoins = { lists: new Map(), tags: new Map() };

/** What a chunk did. */
export interface ChunkResult {
  readonly outcome: ChunkOutcome;
  /** The created contacts asked to confirm: their opt-ins and confirmation job are in the transaction. */
  readonly askedToConfirm: number;
}

/**
 * The chunk processor every import goes through (the job for API imports, the CLI for files):
 * one query finds the contacts the rows name, the rows are planned in memory, and the plan is
 * written in a few multi-row statements, all inside the caller's transaction.
 * With `askToConfirm` (double opt-in applies to the import), the active contacts it created start
 * unconfirmed and the job that emails them is queued in that same transaction: the contacts, their
 * opt-ins and the job commit together or not at all. Likewise the jobs that start sequences, with
 * `enrollInSequences`: the created contacts', and those of existing contacts that join a list or
 * get a tag for the first time. The changes it makes to watched fields (`context.watchedFields`)
 * go to the job that records attribute_change goals, in the same transaction, whatever the options.
 */
export async function importChunk(
  subscriberImport: SubscriberImport,
  rows: readonly ChunkRow[],
  work: ImportChunkWork,
  newId: () => string,
  now: Date,
  context: ChunkContext,
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
  // Read before the write: which lists and tags the existing contacts are about to get for the first time.
  const joins = options.enrollInSequences && plan.updates.length > 0 ? await work.findNewJoins(plan.updates, options.listIds) : NO_JOINS;
  if (plan.inserts.length + plan.updates.length > 0) {
    await work.writeContacts({ inserts: plan.inserts, updates: plan.updates, listIds: options.listIds }, now);
  }
  const created = plan.inserts.map((insert) => insert.subscriber);
  const asked = context.askToConfirm ? created.filter((contact) => contact.status === "active").map((contact) => contact.id) : [];
  if (asked.length > 0) await work.startOptIns(asked, askImportedContactsJob(subscriberImport.companyId, asked), now);
  if (options.enrollInSequences) {
    await queueSequenceStarts(subscriberImport, plan.inserts, new Set(asked), work, now);
    await queueJoinedSequenceStarts(subscriberImport.companyId, joins, work, now);
  }
  const changed = watchedChangesOf(existing, plan.updates, context.watchedFields);
  if (changed.length > 0) await work.enqueue(recordAttributeGoalsJob(subscriberImport.companyId, changed, now), now);
  return { outcome: plan.outcome, askedToConfirm: asked.length };
}

/** The existing contacts whose watched fields the chunk changes, with those changes. */
function watchedChangesOf(
  existing: readonly Subscriber[],
  updates: readonly ContactWrite[],
  paths: readonly string[],
): Array<{ subscriberId: string; fields: WatchedChanges }> {
  if (paths.length === 0 || updates.length === 0) return [];
  const before = new Map(existing.map((contact) => [contact.id, contact]));
  const changed: Array<{ subscriberId: string; fields: WatchedChanges }> = [];
  for (const { subscriber } of updates) {
    const was = before.get(subscriber.id);
    const fields = was ? watchedChanges(was, subscriber, paths) : {};
    if (Object.keys(fields).length > 0) changed.push({ subscriberId: subscriber.id, fields });
  }
  return changed;
}

/**
 * With enrollInSequences (an import's, or a warehouse sync's triggerAutomations), the active
 * contacts the chunk created start their contact_added sequences, then the tag_added ones of
 * their tags (one job per tag); those asked to confirm start theirs once they confirm.
 */
async function queueSequenceStarts(
  subscriberImport: SubscriberImport,
  inserts: readonly ContactWrite[],
  asked: ReadonlySet<string>,
  work: ImportChunkWork,
  now: Date,
): Promise<void> {
  const entering = inserts.filter((write) => write.subscriber.status === "active" && !asked.has(write.subscriber.id));
  if (entering.length === 0) return;
  const { companyId, options } = subscriberImport;
  const ids = entering.map((write) => write.subscriber.id);
  await work.enqueue(startSequencesJob(companyId, ids, { trigger: "contact_added", created: true, listIds: options.listIds }), now);
  await queueTagStarts(
    companyId,
    entering.map((write) => [write.subscriber.id, write.tags]),
    work,
    now,
  );
}

/**
 * Existing contacts that joined lists start those lists' contact_added sequences (not the ones
 * for any new contact), one job per set of lists joined, so that a sequence for any list starts
 * once; those given a tag for the first time start its tag_added ones. The entry point leaves out
 * contacts that are not active or not confirmed.
 */
async function queueJoinedSequenceStarts(companyId: string, joins: NewJoins, work: ImportChunkWork, now: Date): Promise<void> {
  const byLists = new Map<string, string[]>();
  for (const [subscriberId, listIds] of joins.lists) byLists.set(listIds.join(" "), [...(byLists.get(listIds.join(" ")) ?? []), subscriberId]);
  for (const [key, ids] of byLists)
    await work.enqueue(startSequencesJob(companyId, ids, { trigger: "contact_added", created: false, listIds: key.split(" ") }), now);
  await queueTagStarts(companyId, joins.tags, work, now);
}

/** One job per tag, for the contacts that got it: its tag_added sequences. */
async function queueTagStarts(
  companyId: string,
  tagsByContact: Iterable<readonly [string, readonly string[]]>,
  work: ImportChunkWork,
  now: Date,
): Promise<void> {
  const byTag = new Map<string, string[]>();
  for (const [subscriberId, tags] of tagsByContact) for (const tag of tags) byTag.set(tag, [...(byTag.get(tag) ?? []), subscriberId]);
  for (const [tag, ids] of byTag) await work.enqueue(startSequencesJob(companyId, ids, { trigger: "tag_added", tagNames: [tag] }), now);
}
