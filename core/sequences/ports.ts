import { token } from "../shared/token.js";
import type { MoveChange, Relocation } from "./enrollment-ports.js";
import type { Sequence, SequenceStatus } from "./model.js";

export interface SequenceFilter {
  readonly status?: SequenceStatus | undefined;
  /** Part of the name, any case. */
  readonly search?: string | undefined;
  /** Sequences carrying any of these labels. */
  readonly labels?: readonly string[] | undefined;
  /** Null: every sequence from `offset` on. */
  readonly limit: number | null;
  readonly offset: number;
}

/** References a sequence may hold to other records of the company. */
export interface References {
  readonly listIds: readonly string[];
  readonly segmentIds: readonly string[];
  readonly tagIds: readonly string[];
  readonly senderProfileIds: readonly string[];
  readonly replyProfileIds: readonly string[];
}

/** A company's sequences, each stored with its whole graph. Every method names the company. */
export interface SequenceRepository {
  insert(sequence: Sequence): Promise<void>;
  find(companyId: string, sequenceId: string): Promise<Sequence | null>;
  /** Newest first, and how many match the filter in all. */
  list(companyId: string, filter: SequenceFilter): Promise<{ sequences: Sequence[]; total: number }>;
  /** Live sequences taking new entries whose trigger is one of `triggers`: one indexed query, asked on every event and new contact. */
  takingEntries(companyId: string, triggers: readonly string[]): Promise<Sequence[]>;
  /**
   * Saves the sequence (settings and graph) if its stored graph is still at `expectedRevision`:
   * false when another write got there first or the sequence is gone, and nothing is changed.
   */
  update(sequence: Sequence, expectedRevision: number): Promise<boolean>;
  /**
   * As `update`, and in the same transaction moves the running enrollments off the nodes the new
   * graph no longer has (`relocations`): how many went on at another step and how many ended, or
   * null when `update` would have answered false (and nothing changed).
   */
  updateGraph(
    sequence: Sequence,
    expectedRevision: number,
    relocations: readonly Relocation[],
    change: MoveChange,
  ): Promise<{ readonly migrated: number; readonly completed: number } | null>;
  delete(companyId: string, sequenceId: string): Promise<boolean>;
  /** Those of `references` that are not the company's (missing, or another company's). */
  unknownReferences(companyId: string, references: References): Promise<References>;
}
export const SequenceRepository = token<SequenceRepository>("lifecycle.SequenceRepository");
