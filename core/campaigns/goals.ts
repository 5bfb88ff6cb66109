import * as t from "io-ts";
import { token } from "../shared/token.js";
import { Id, NullableString, Timestamp, view } from "../shared/view-fields.js";

/**
 * A campaign's goals (compat-reference §11 goals, with the sequences' goal fields): the event a
 * recipient does within `attributionWindowHours` after the campaign was sent to them that counts
 * as a conversion of the campaign. Only event goals exist here (attribute changes are not
 * recorded over time); the conversions show in GET /metrics/campaigns/{id}.
 */
export interface CampaignGoal {
  readonly id: string;
  readonly companyId: string;
  readonly campaignId: string;
  readonly name: string;
  readonly description: string | null;
  readonly triggerEventName: string;
  /** The event property that carries the conversion's value, and its label: kept for the dashboard. */
  readonly eventPropertyName: string | null;
  readonly eventPropertyLabel: string | null;
  readonly attributionWindowHours: number;
  /** An inactive goal keeps its settings and shows no conversions. */
  readonly isActive: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface CampaignGoalRepository {
  /** Oldest first. */
  list(companyId: string, campaignId: string): Promise<CampaignGoal[]>;
  find(companyId: string, campaignId: string, goalId: string): Promise<CampaignGoal | null>;
  insert(goal: CampaignGoal): Promise<void>;
  update(goal: CampaignGoal): Promise<void>;
  /** False when there was no such goal. */
  delete(companyId: string, campaignId: string, goalId: string): Promise<boolean>;
}
export const CampaignGoalRepository = token<CampaignGoalRepository>("lifecycle.CampaignGoalRepository");

/** A campaign may have this many goals. */
export const MAX_CAMPAIGN_GOALS = 20;

export const GoalView = view(
  {
    id: Id,
    campaignId: Id,
    name: t.string,
    description: NullableString,
    triggerType: t.literal("event"),
    triggerEventName: t.string,
    attributePath: t.null,
    attributeCondition: t.null,
    attributeValue: t.null,
    attributePreviousValue: t.null,
    eventPropertyName: NullableString,
    eventPropertyLabel: NullableString,
    attributionWindowHours: t.number,
    isActive: t.boolean,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "CampaignGoal",
);
export type GoalView = t.TypeOf<typeof GoalView>;

export const toGoalView = (goal: CampaignGoal): GoalView => ({
  id: goal.id,
  campaignId: goal.campaignId,
  name: goal.name,
  description: goal.description,
  triggerType: "event",
  triggerEventName: goal.triggerEventName,
  attributePath: null,
  attributeCondition: null,
  attributeValue: null,
  attributePreviousValue: null,
  eventPropertyName: goal.eventPropertyName,
  eventPropertyLabel: goal.eventPropertyLabel,
  attributionWindowHours: goal.attributionWindowHours,
  isActive: goal.isActive,
  createdAt: goal.createdAt.toISOString(),
  updatedAt: goal.updatedAt.toISOString(),
});

export const GOAL_NOT_FOUND_MESSAGE = "Goal not found";
