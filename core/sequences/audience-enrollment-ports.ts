import type { SegmentDefinition } from "../segments/ports.js";
import { token } from "../shared/token.js";
import type { AudienceEnrollment, AudienceEnrollmentStatus } from "./audience-enrollment.js";

/** An audience as the database reads it: a segment comes with its filter trees. */
export type AudienceSelection =
  | { readonly type: "all"; readonly companyId: string }
  | { readonly type: "list"; readonly companyId: string; readonly listId: string }
  | { readonly type: "tag"; readonly companyId: string; readonly tagName: string }
  | { readonly type: "segment"; readonly companyId: string; readonly definition: SegmentDefinition };

/** Audience enrollment runs and the audiences they read. Every method names the company. */
export interface AudienceEnrollmentRepository {
  insert(run: AudienceEnrollment): Promise<void>;
  find(companyId: string, sequenceId: string, runId: string): Promise<AudienceEnrollment | null>;
  /** Newest first, after the given position; at most `limit`. */
  list(
    companyId: string,
    sequenceId: string,
    page: { readonly limit: number; readonly before: { readonly createdAt: Date; readonly id: string } | null },
  ): Promise<AudienceEnrollment[]>;
  /**
   * Saves the run if its status and processed count are still those it was read with: false
   * when another step or a cancel moved it first (nothing is written then).
   */
  save(run: AudienceEnrollment, expected: { readonly status: AudienceEnrollmentStatus; readonly processedCount: number }): Promise<boolean>;
  /** Contacts in the audience now. */
  count(selection: AudienceSelection): Promise<number>;
  /** Up to `limit` IDs of the audience's contacts after `afterId`, in ID order. */
  page(selection: AudienceSelection, afterId: string | null, limit: number): Promise<string[]>;
}
export const AudienceEnrollmentRepository = token<AudienceEnrollmentRepository>("lifecycle.AudienceEnrollmentRepository");
