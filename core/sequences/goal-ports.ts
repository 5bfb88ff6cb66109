import { token } from "../shared/token.js";
import type { CountedGoal, GoalConversion, SequenceGoal } from "./goals.js";

/** Sequence goals and their conversions. Every method names the company. */
export interface GoalRepository {
  insert(goal: SequenceGoal): Promise<void>;
  /** False when the goal is not the company's. */
  update(goal: SequenceGoal): Promise<boolean>;
  delete(companyId: string, sequenceId: string, goalId: string): Promise<boolean>;
  find(companyId: string, sequenceId: string, goalId: string): Promise<CountedGoal | null>;
  /** Oldest first. */
  list(companyId: string, sequenceId: string): Promise<CountedGoal[]>;
  /** The company's active attribute_change goals. */
  activeAttributeGoals(companyId: string): Promise<SequenceGoal[]>;
  /** The company's active event goals waiting for this event name. */
  activeEventGoals(companyId: string, eventName: string): Promise<SequenceGoal[]>;
  /**
   * The contact's latest enrollment in the sequence that a goal reached at `at` is credited to:
   * started by then, and running or finished at most `windowHours` before. Null when none is.
   */
  attributableEnrollment(companyId: string, sequenceId: string, subscriberId: string, at: Date, windowHours: number): Promise<string | null>;
  /** Records the conversion unless the enrollment already converted on this goal; true when recorded. */
  recordConversion(conversion: GoalConversion): Promise<boolean>;
}
export const GoalRepository = token<GoalRepository>("lifecycle.GoalRepository");
