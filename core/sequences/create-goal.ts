import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateGoalCommand } from "./goal-commands.js";
import type { GoalRepository } from "./goal-ports.js";
import { toGoalView, type GoalView } from "./goal-view.js";
import { applyGoalFields, DEFAULT_GOAL_FIELDS, goalProblem, type SequenceGoal } from "./goals.js";
import { SEQUENCE_NOT_FOUND } from "./model.js";
import type { SequenceRepository } from "./ports.js";

/** POST /sequences/{sequenceId}/goals: an event goal, active unless `isActive: false`. */
export class CreateGoal {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly goals: GoalRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, sequenceId: string, input: CreateGoalCommand): Promise<Result<GoalView>> => {
    if (!(await this.sequences.find(actor.companyId, sequenceId))) return fail(SEQUENCE_NOT_FOUND);
    const now = this.clock.now();
    const goal: SequenceGoal = applyGoalFields(
      { ...DEFAULT_GOAL_FIELDS, id: this.ids.next("goal"), companyId: actor.companyId, sequenceId, createdAt: now, updatedAt: now },
      input,
    );
    const problem = goalProblem(goal);
    if (problem) return fail(badRequest(problem));
    await this.goals.insert(goal);
    return ok(toGoalView({ ...goal, conversionCount: 0 }));
  };
}
