import * as t from "io-ts";
import { CreateGoalCommand, GoalPath, UpdateGoalCommand } from "../../../core/sequences/goal-commands.js";
import { GoalView } from "../../../core/sequences/goal-view.js";
import { CreateGoal } from "../../../core/sequences/create-goal.js";
import { DeleteGoal } from "../../../core/sequences/delete-goal.js";
import { ListGoals } from "../../../core/sequences/list-goals.js";
import { UpdateGoal } from "../../../core/sequences/update-goal.js";
import { SequencePath } from "../../../core/sequences/commands.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const GOAL_RULES =
  "An event goal (triggerEventName) is reached when a contact in the sequence, or one who left it at most attributionWindowHours (1-720, default 72) before, records that event; each run converts once per goal, and eventPropertyName names the event property a conversion records. An attribute_change goal (attributePath, attributeCondition changed | changed_to attributeValue | changed_from_to attributePreviousValue and attributeValue; values compared as text, case aside) is reached when such a contact is saved with that field or custom attribute changed so (by the API, an event's attributes or an update step)";

/** A sequence's goals (compat-reference §10). */
export const sequenceGoalsRoutes = routeModule({ listGoals: ListGoals, createGoal: CreateGoal, updateGoal: UpdateGoal, deleteGoal: DeleteGoal }, (uses) => [
  defineRoute({
    method: "get",
    path: "/sequences/:sequenceId/goals",
    tag: "Sequences",
    scopes: ["sequences:read"],
    summary: "A sequence's goals, oldest first, each with conversionCount; 404 'Sequence not found'",
    params: SequencePath,
    response: view({ goals: t.readonlyArray(GoalView) }),
    errors: [404],
    handle: async ({ input, actor }) => under("goals")(await uses.listGoals.execute(actor, input.params.sequenceId)),
  }),
  defineRoute({
    method: "post",
    path: "/sequences/:sequenceId/goals",
    tag: "Sequences",
    scopes: ["sequences:write"],
    summary: `Add a goal to a sequence. ${GOAL_RULES}`,
    params: SequencePath,
    body: CreateGoalCommand,
    response: view({ goal: GoalView }),
    errors: [400, 404, 422],
    handle: async ({ input, actor }) => under("goal")(await uses.createGoal.execute(actor, input.params.sequenceId, input.body)),
  }),
  defineRoute({
    method: "patch",
    path: "/sequences/:sequenceId/goals/:goalId",
    tag: "Sequences",
    scopes: ["sequences:write"],
    summary: `Change a goal's fields (null clears the nullable ones); its conversions stay. 404 'Goal not found'. ${GOAL_RULES}`,
    params: GoalPath,
    body: UpdateGoalCommand,
    response: view({ goal: GoalView }),
    errors: [400, 404, 422],
    handle: async ({ input, actor }) => under("goal")(await uses.updateGoal.execute(actor, input.params.sequenceId, input.params.goalId, input.body)),
  }),
  defineRoute({
    method: "delete",
    path: "/sequences/:sequenceId/goals/:goalId",
    tag: "Sequences",
    scopes: ["sequences:write"],
    summary: "Delete a goal and its conversions; 404 'Goal not found'",
    params: GoalPath,
    response: view({ goalId: Id }),
    errors: [404],
    handle: async ({ input, actor }) => uses.deleteGoal.execute(actor, input.params.sequenceId, input.params.goalId),
  }),
]);
