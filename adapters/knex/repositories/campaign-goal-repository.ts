import * as t from "io-ts";
import type { Knex } from "knex";
import type { CampaignGoal, CampaignGoalRepository } from "../../../core/campaigns/goals.js";
import { DbBoolean, DbDate, DbInteger, decodeRow, toDbDate } from "../row-codecs.js";

const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

const GoalRow = t.type({
  id: t.string,
  company_id: t.string,
  campaign_id: t.string,
  name: t.string,
  description: nullable(t.string),
  trigger_event_name: t.string,
  event_property_name: nullable(t.string),
  event_property_label: nullable(t.string),
  attribution_window_hours: DbInteger,
  is_active: DbBoolean,
  created_at: DbDate,
  updated_at: DbDate,
});

function toGoal(row: unknown): CampaignGoal {
  const r = decodeRow(GoalRow, row, "campaign_goals");
  return {
    id: r.id,
    companyId: r.company_id,
    campaignId: r.campaign_id,
    name: r.name,
    description: r.description,
    triggerEventName: r.trigger_event_name,
    eventPropertyName: r.event_property_name,
    eventPropertyLabel: r.event_property_label,
    attributionWindowHours: r.attribution_window_hours,
    isActive: r.is_active,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const toRow = (goal: CampaignGoal) => ({
  name: goal.name,
  description: goal.description,
  trigger_event_name: goal.triggerEventName,
  event_property_name: goal.eventPropertyName,
  event_property_label: goal.eventPropertyLabel,
  attribution_window_hours: goal.attributionWindowHours,
  is_active: goal.isActive,
  updated_at: toDbDate(goal.updatedAt),
});

/** The whole row of a new goal. */
export const goalRow = (goal: CampaignGoal) => ({
  id: goal.id,
  company_id: goal.companyId,
  campaign_id: goal.campaignId,
  created_at: toDbDate(goal.createdAt),
  ...toRow(goal),
});

/** `campaign_goals`, gone with their campaign. */
export class KnexCampaignGoalRepository implements CampaignGoalRepository {
  constructor(private readonly knex: Knex) {}

  async list(companyId: string, campaignId: string): Promise<CampaignGoal[]> {
    const rows: unknown[] = await this.knex("campaign_goals").where({ company_id: companyId, campaign_id: campaignId }).orderBy(["created_at", "id"]);
    return rows.map(toGoal);
  }

  async find(companyId: string, campaignId: string, goalId: string): Promise<CampaignGoal | null> {
    const [row] = await this.knex("campaign_goals").where({ company_id: companyId, campaign_id: campaignId, id: goalId });
    return row ? toGoal(row) : null;
  }

  async insert(goal: CampaignGoal): Promise<void> {
    await this.knex("campaign_goals").insert(goalRow(goal));
  }

  async update(goal: CampaignGoal): Promise<void> {
    await this.knex("campaign_goals").where({ company_id: goal.companyId, campaign_id: goal.campaignId, id: goal.id }).update(toRow(goal));
  }

  async delete(companyId: string, campaignId: string, goalId: string): Promise<boolean> {
    return (await this.knex("campaign_goals").where({ company_id: companyId, campaign_id: campaignId, id: goalId }).delete()) > 0;
  }
}
