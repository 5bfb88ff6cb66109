import { token } from "../shared/token.js";
import type { FunnelCounts } from "./model.js";
import type { MetricsWindow } from "./period.js";

/** A running enrollment count at one node. */
export interface NodeEnrollmentCount {
  readonly nodeId: string;
  readonly status: "active" | "waiting";
  readonly count: number;
}

/** An enrollment that failed at a node. */
export interface FailedEnrollment {
  readonly nodeId: string;
  readonly subscriberId: string;
  readonly email: string | null;
  readonly failedAt: Date;
  readonly failedReason: string | null;
}

/** A conversion credited to one of the sequence's goals. */
export interface SequenceConversion {
  /** The email step the contact was last sent by the sequence before converting; null when none was. */
  readonly nodeId: string | null;
  /** The goal's `eventPropertyName` and the value the conversion recorded for it. */
  readonly propertyName: string | null;
  readonly value: string | null;
}

/** Aggregates of one sequence: its sends (never test sends), its enrollments and their steps. Every method names the company. */
export interface SequenceMetricsQueries {
  /** The funnel of the sequence's sends made in the window, per email node (a node without sends is absent). */
  funnelsByNode(companyId: string, sequenceId: string, window: MetricsWindow): Promise<ReadonlyMap<string, FunnelCounts>>;
  /** Running enrollments (active, waiting) per current node. */
  runningByNode(companyId: string, sequenceId: string): Promise<NodeEnrollmentCount[]>;
  /** Failed enrollments per node where they stopped. */
  failedCounts(companyId: string, sequenceId: string): Promise<ReadonlyMap<string, number>>;
  /** The latest failed enrollments at the node, at most `limit`. */
  latestFailed(companyId: string, sequenceId: string, nodeId: string, limit: number): Promise<FailedEnrollment[]>;
  /** The conversions its goals recorded in the window (all of its goals, whether active now or not). */
  conversions(companyId: string, sequenceId: string, window: MetricsWindow): Promise<SequenceConversion[]>;
  /** Steps the sequence's enrollments skipped, by the recorded reason. */
  skippedSteps(companyId: string, sequenceId: string): Promise<ReadonlyArray<{ readonly reason: string; readonly count: number }>>;
}
export const SequenceMetricsQueries = token<SequenceMetricsQueries>("lifecycle.SequenceMetricsQueries");
