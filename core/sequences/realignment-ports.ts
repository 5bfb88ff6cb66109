import { token } from "../shared/token.js";
import type { Realignment } from "./realignment.js";

/** Background sending-window realignments. Every method names the company. */
export interface RealignmentRepository {
  insert(realignment: Realignment): Promise<void>;
  find(companyId: string, sequenceId: string, realignmentId: string): Promise<Realignment | null>;
  /** Saves status, cursor, result, error and times. */
  save(realignment: Realignment): Promise<void>;
}
export const RealignmentRepository = token<RealignmentRepository>("lifecycle.RealignmentRepository");
