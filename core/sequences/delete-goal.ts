import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { GoalRepository } from "./goal-ports.js";
import { GOAL_NOT_FOUND } from "./goals.js";

/** DELETE /sequences/{sequenceId}/goals/{goalId}: the goal and its conversions. */
export class DeleteGoal {
  constructor(private readonly goals: GoalRepository) {}

  execute = async (actor: Actor, sequenceId: string, goalId: string): Promise<Result<{ readonly goalId: string }>> =>
    (await this.goals.delete(actor.companyId, sequenceId, goalId)) ? ok({ goalId }) : fail(GOAL_NOT_FOUND);
}
