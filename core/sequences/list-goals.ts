import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { GoalRepository } from "./goal-ports.js";
import { toGoalView, type GoalView } from "./goal-view.js";
import { SEQUENCE_NOT_FOUND } from "./model.js";
import type { SequenceRepository } from "./ports.js";

/** GET /sequences/{sequenceId}/goals: oldest first, each with its conversion count. */
export class ListGoals {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly goals: GoalRepository,
  ) {}

  execute = async (actor: Actor, sequenceId: string): Promise<Result<GoalView[]>> => {
    if (!(await this.sequences.find(actor.companyId, sequenceId))) return fail(SEQUENCE_NOT_FOUND);
    return ok((await this.goals.list(actor.companyId, sequenceId)).map(toGoalView));
  };
}
