import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateGoalCommand } from "./goal-commands.js";
import type { GoalRepository } from "./goal-ports.js";
import { toGoalView, type GoalView } from "./goal-view.js";
import { applyGoalFields, GOAL_NOT_FOUND, goalProblem } from "./goals.js";

/** PATCH /sequences/{sequenceId}/goals/{goalId}: changes the given fields; its conversions stay. */
export class UpdateGoal {
  constructor(
    private readonly goals: GoalRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, sequenceId: string, goalId: string, input: UpdateGoalCommand): Promise<Result<GoalView>> => {
    const current = await this.goals.find(actor.companyId, sequenceId, goalId);
    if (!current) return fail(GOAL_NOT_FOUND);
    const next = { ...applyGoalFields(current, input), updatedAt: this.clock.now() };
    const problem = goalProblem(next);
    if (problem) return fail(badRequest(problem));
    if (!(await this.goals.update(next))) return fail(GOAL_NOT_FOUND);
    return ok(toGoalView(next));
  };
}
