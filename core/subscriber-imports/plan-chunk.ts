import { resolveDuplicate } from "../subscribers/duplicate-strategy.js";
import { newContact } from "../subscribers/new-contact.js";
import type { DuplicateStrategy, Subscriber } from "../subscribers/model.js";
import { FAIL_REASONS, SKIP_REASONS, type ChunkOutcome } from "./model.js";
import type { RowReading } from "./rows.js";

/** A contact to write, with the tags it gains (or, with `replaceTags`, the tags it has exactly). */
export interface ContactWrite {
  readonly subscriber: Subscriber;
  /** Normalised tag names. */
  readonly tags: readonly string[];
  /** Overwrite gave tags: the contact's other tags are removed. */
  readonly replaceTags: boolean;
}

/** What a chunk writes, in one transaction: new contacts, changed contacts, and their lists. */
export interface ChunkPlan {
  readonly inserts: readonly ContactWrite[];
  readonly updates: readonly ContactWrite[];
  readonly outcome: ChunkOutcome;
}

export interface PlanContext {
  readonly companyId: string;
  readonly strategy: DuplicateStrategy;
  /** A new subscriber ID. */
  readonly newId: () => string;
  readonly now: Date;
}

/** A contact of the chunk as the plan goes: it is also the ContactWrite the plan returns. */
interface Entry {
  subscriber: Subscriber;
  readonly isNew: boolean;
  tags: string[];
  replaceTags: boolean;
  touched: boolean;
}

/** Counts of one chunk, kept mutable while its rows are planned. */
class Tally {
  added = 0;
  updated = 0;
  skipped = 0;
  failed = 0;
  readonly skippedReasons: Record<string, number> = {};
  readonly failedReasons: Record<string, number> = {};

  skip(reason: string): void {
    this.skipped += 1;
    this.skippedReasons[reason] = (this.skippedReasons[reason] ?? 0) + 1;
  }

  fail(reason: string): void {
    this.failed += 1;
    this.failedReasons[reason] = (this.failedReasons[reason] ?? 0) + 1;
  }

  get outcome(): ChunkOutcome {
    const { added, updated, skipped, failed, skippedReasons, failedReasons } = this;
    return { added, updated, skipped, failed, skippedReasons, failedReasons };
  }
}

/**
 * Decides what every row of a chunk does, in row order, against the contacts that already
 * exist: the same rules as SaveContact (match by email, then externalId, then the duplicate
 * strategy of subscribers/duplicate-strategy.ts), applied in memory so the chunk is written
 * with a handful of statements. A later row that matches a contact an earlier row of
 * the chunk created or changed builds on that row's result.
 */
export function planChunk(readings: readonly RowReading[], existing: readonly Subscriber[], context: PlanContext): ChunkPlan {
  const { strategy, now } = context;
  const byEmail = new Map<string, Entry>();
  const byExternalId = new Map<string, Entry>();
  const index = (entry: Entry) => {
    byEmail.set(entry.subscriber.email, entry);
    if (entry.subscriber.externalId) byExternalId.set(entry.subscriber.externalId, entry);
  };
  for (const subscriber of existing) index({ subscriber, isNew: false, tags: [], replaceTags: false, touched: false });

  const inserts: Entry[] = [];
  const updates: Entry[] = [];
  const tally = new Tally();
  for (const reading of readings) {
    if (reading.kind === "duplicate") {
      tally.skip(SKIP_REASONS.duplicate);
      continue;
    }
    if (reading.kind === "failed") {
      tally.fail(reading.reason);
      continue;
    }
    const contact = reading.contact;
    const sameEmail = byEmail.get(contact.email);
    const sameExternalId = contact.externalId ? byExternalId.get(contact.externalId) : undefined;
    if (sameEmail && sameExternalId && sameEmail !== sameExternalId) {
      tally.fail(FAIL_REASONS.externalIdConflict);
      continue;
    }
    const target = sameEmail ?? sameExternalId;
    if (!target) {
      const entry: Entry = {
        subscriber: newContact(context.companyId, context.newId(), contact.email, contact, now),
        isNew: true,
        tags: [...(contact.tags ?? [])],
        replaceTags: false,
        touched: true,
      };
      inserts.push(entry);
      index(entry);
      tally.added += 1;
      continue;
    }
    const resolution = resolveDuplicate(strategy, target.subscriber, contact, contact.tags, now);
    if (!resolution) {
      tally.skip(SKIP_REASONS.exists);
      continue;
    }
    const before = target.subscriber.externalId;
    target.subscriber = resolution.subscriber;
    if (resolution.replaceTags) {
      target.tags = [...resolution.tags];
      // A contact this chunk creates has no other tags to remove.
      target.replaceTags = !target.isNew;
    } else {
      for (const tag of resolution.tags) if (!target.tags.includes(tag)) target.tags.push(tag);
    }
    if (before !== target.subscriber.externalId) {
      if (before && byExternalId.get(before) === target) byExternalId.delete(before);
      index(target);
    }
    if (!target.touched) {
      target.touched = true;
      updates.push(target);
    }
    tally.updated += 1;
  }

  return { inserts, updates, outcome: tally.outcome };
}
