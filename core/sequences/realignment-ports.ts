import type { JobRequest } from "../ports/job-queue.js";
import { token } from "../shared/token.js";
import type { Realignment } from "./realignment.js";

/** Background sending-window realignments. Every method names the company. */
export interface RealignmentRepository {
  /** Stores a queued realignment with the job that applies it, in one transaction. */
  insert(realignment: Realignment, job: JobRequest): Promise<void>;
  find(companyId: string, sequenceId: string, realignmentId: string): Promise<Realignment | null>;
  /** Saves status, cursor, result, error and times. */
  save(realignment: Realignment): Promise<void>;
}
export const RealignmentRepository = token<RealignmentRepository>("lifecycle.RealignmentRepository");
