import * as t from "io-ts";
import type { Knex } from "knex";
import type { GoalRepository } from "../../../core/sequences/goal-ports.js";
import type { CountedGoal, GoalConversion, SequenceGoal } from "../../../core/sequences/goals.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { DbBoolean, DbDate, DbInteger, decodeRow, toDbDate } from "../row-codecs.js";

const NullableText = t.union([t.string, t.null]);

const GoalRow = t.type({
  id: t.string,
  company_id: t.string,
  sequence_id: t.string,
  name: t.string,
  description: NullableText,
  trigger_type: oneOf(["event", "attribute_change"] as const),
  trigger_event_name: NullableText,
  attribute_path: NullableText,
  attribute_condition: t.union([oneOf(["changed", "changed_to", "changed_from_to"] as const), t.null]),
  attribute_value: NullableText,
  attribute_previous_value: NullableText,
  event_property_name: NullableText,
  event_property_label: NullableText,
  attribution_window_hours: DbInteger,
  is_active: DbBoolean,
  created_at: DbDate,
  updated_at: DbDate,
});

function toGoal(row: unknown): SequenceGoal {
  const r = decodeRow(GoalRow, row, "sequence_goals");
  return {
    id: r.id,
    companyId: r.company_id,
    sequenceId: r.sequence_id,
    name: r.name,
    description: r.description,
    triggerType: r.trigger_type,
    triggerEventName: r.trigger_event_name,
    attributePath: r.attribute_path,
    attributeCondition: r.attribute_condition,
    attributeValue: r.attribute_value,
    attributePreviousValue: r.attribute_previous_value,
    eventPropertyName: r.event_property_name,
    eventPropertyLabel: r.event_property_label,
    attributionWindowHours: r.attribution_window_hours,
    isActive: r.is_active,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const columns = (goal: SequenceGoal) => ({
  name: goal.name,
  description: goal.description,
  trigger_type: goal.triggerType,
  trigger_event_name: goal.triggerEventName,
  attribute_path: goal.attributePath,
  attribute_condition: goal.attributeCondition,
  attribute_value: goal.attributeValue,
  attribute_previous_value: goal.attributePreviousValue,
  event_property_name: goal.eventPropertyName,
  event_property_label: goal.eventPropertyLabel,
  attribution_window_hours: goal.attributionWindowHours,
  is_active: goal.isActive,
  updated_at: toDbDate(goal.updatedAt),
});

const HOUR_MS = 3_600_000;

/** `sequence_goals` and `sequence_goal_conversions` (migration 0030). */
export class KnexGoalRepository implements GoalRepository {
  constructor(private readonly knex: Knex) {}

  async insert(goal: SequenceGoal): Promise<void> {
    await this.knex("sequence_goals").insert({
      id: goal.id,
      company_id: goal.companyId,
      sequence_id: goal.sequenceId,
      created_at: toDbDate(goal.createdAt),
      ...columns(goal),
    });
  }

  async update(goal: SequenceGoal): Promise<boolean> {
    const updated = await this.knex("sequence_goals").where({ id: goal.id, company_id: goal.companyId, sequence_id: goal.sequenceId }).update(columns(goal));
    return updated === 1;
  }

  async delete(companyId: string, sequenceId: string, goalId: string): Promise<boolean> {
    return (await this.knex("sequence_goals").where({ id: goalId, company_id: companyId, sequence_id: sequenceId }).delete()) === 1;
  }

  private counted() {
    const conversions = this.knex("sequence_goal_conversions as c").whereRaw("c.goal_id = g.id").count("*");
    return this.knex("sequence_goals as g").select("g.*", conversions.as("conversion_count"));
  }

  private toCounted(row: Record<string, unknown>): CountedGoal {
    return { ...toGoal(row), conversionCount: Number(row.conversion_count ?? 0) };
  }

  async find(companyId: string, sequenceId: string, goalId: string): Promise<CountedGoal | null> {
    const row = await this.counted().where({ "g.id": goalId, "g.company_id": companyId, "g.sequence_id": sequenceId }).first();
    return row ? this.toCounted(row) : null;
  }

  async list(companyId: string, sequenceId: string): Promise<CountedGoal[]> {
    const rows = await this.counted().where({ "g.company_id": companyId, "g.sequence_id": sequenceId }).orderBy("g.created_at").orderBy("g.id");
    return rows.map((row) => this.toCounted(row));
  }

  async activeAttributeGoals(companyId: string): Promise<SequenceGoal[]> {
    const rows = await this.knex("sequence_goals").where({ company_id: companyId, trigger_type: "attribute_change", is_active: true });
    return rows.map(toGoal);
  }

  async activeEventGoals(companyId: string, eventName: string): Promise<SequenceGoal[]> {
    const rows = await this.knex("sequence_goals").where({ company_id: companyId, trigger_event_name: eventName, trigger_type: "event", is_active: true });
    return rows.map(toGoal);
  }

  async attributableEnrollment(companyId: string, sequenceId: string, subscriberId: string, at: Date, windowHours: number): Promise<string | null> {
    const windowStart = new Date(at.getTime() - windowHours * HOUR_MS);
    const row = await this.knex("sequence_enrollments")
      .where({ company_id: companyId, sequence_id: sequenceId, subscriber_id: subscriberId })
      .andWhere("started_at", "<", toDbDate(at))
      .andWhere((query) => query.whereNull("finished_at").orWhere("finished_at", ">=", toDbDate(windowStart)))
      .orderBy("started_at", "desc")
      .first("id");
    return row ? (row.id as string) : null;
  }

  async recordConversion(conversion: GoalConversion): Promise<boolean> {
    const inserted = await this.knex("sequence_goal_conversions")
      .insert({
        goal_id: conversion.goalId,
        enrollment_id: conversion.enrollmentId,
        company_id: conversion.companyId,
        subscriber_id: conversion.subscriberId,
        value: conversion.value,
        converted_at: toDbDate(conversion.convertedAt),
      })
      .onConflict(["goal_id", "enrollment_id"])
      .ignore()
      .returning("goal_id");
    return inserted.length > 0;
  }
}
