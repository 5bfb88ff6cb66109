import * as t from "io-ts";
import type { Knex } from "knex";
import { TargetListsCodec } from "../../../core/campaigns/commands.js";
import { StoredComputedList } from "../../../core/campaigns/computed-lists.js";
import { CAMPAIGN_STATUSES, RECURRING_INTERVALS, type Campaign, type CampaignStatus } from "../../../core/campaigns/model.js";
import type { CampaignGoal } from "../../../core/campaigns/goals.js";
import type { CampaignPage, CampaignRepository } from "../../../core/campaigns/ports.js";
import { EmailBlocks } from "../../../core/emails/blocks.js";
import type { EmailBody } from "../../../core/emails/model.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { isPostgres } from "../connection.js";
import { DbBoolean, DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { goalRow } from "./campaign-goal-repository.js";
import { sendStateOf } from "./campaign-send-repository.js";

const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);
const Strings = dbJson(t.array(t.string));

const CampaignRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  subject: nullable(t.string),
  preview_text: nullable(t.string),
  html: nullable(t.string),
  blocks: nullable(dbJson(EmailBlocks)),
  tracking_code: nullable(t.string),
  labels: nullable(Strings),
  target_lists: nullable(dbJson(TargetListsCodec)),
  sender_profile_id: nullable(t.string),
  from_email: nullable(t.string),
  from_name: nullable(t.string),
  reply_profile_id: nullable(t.string),
  reply_to: nullable(t.string),
  reply_to_name: nullable(t.string),
  cc_emails: nullable(Strings),
  bcc_emails: nullable(Strings),
  campaign_data: nullable(dbJson(t.record(t.string, t.unknown))),
  computed_lists: nullable(dbJson(t.array(StoredComputedList))),
  max_recipients: nullable(DbInteger),
  status: oneOf(CAMPAIGN_STATUSES, "CampaignStatus"),
  scheduled_at: DbNullableDate,
  scheduled_timezone: nullable(t.string),
  send_in_recipient_timezone: DbBoolean,
  spread_over_hours: nullable(DbInteger),
  recurring_interval: nullable(oneOf(RECURRING_INTERVALS, "RecurringInterval")),
  recurrence_anchor_at: DbNullableDate,
  previous_occurrence_id: nullable(t.string),
  pause_reason: nullable(t.string),
  send_time_optimization: DbBoolean,
  send_time_window_hours: nullable(DbInteger),
  sent_at: DbNullableDate,
  source: nullable(t.string),
  external_id: nullable(t.string),
  created_at: DbDate,
  updated_at: DbDate,
});

function toCampaign(row: unknown): Campaign {
  const r = decodeRow(CampaignRow, row, "campaigns");
  const body: EmailBody | null = r.blocks ? { blocks: r.blocks } : r.html !== null ? { html: r.html } : null;
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    subject: r.subject,
    previewText: r.preview_text,
    body,
    trackingCode: r.tracking_code,
    labels: r.labels ?? [],
    targetLists: r.target_lists,
    identity: {
      senderProfileId: r.sender_profile_id,
      fromEmail: r.from_email,
      fromName: r.from_name,
      replyProfileId: r.reply_profile_id,
      replyTo: r.reply_to,
      replyToName: r.reply_to_name,
    },
    ccEmails: r.cc_emails ?? [],
    bccEmails: r.bcc_emails ?? [],
    campaignData: r.campaign_data ?? {},
    computedLists: r.computed_lists ?? [],
    maxRecipients: r.max_recipients,
    status: r.status,
    schedule: {
      scheduledAt: r.scheduled_at,
      scheduledTimezone: r.scheduled_timezone,
      sendInRecipientTimezone: r.send_in_recipient_timezone,
      spreadOverHours: r.spread_over_hours,
      recurringInterval: r.recurring_interval,
      recurrenceAnchor: r.recurrence_anchor_at,
      sendTimeOptimization: r.send_time_optimization,
      sendTimeWindowHours: r.send_time_window_hours,
    },
    sentAt: r.sent_at,
    source: r.source,
    externalId: r.external_id,
    previousOccurrenceId: r.previous_occurrence_id,
    pauseReason: r.pause_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    send: sendStateOf(row),
  };
}

/** Every column a save writes (the identity and origin columns never change; the send columns are the send engine's). */
const savedColumns = (campaign: Campaign) => ({
  name: campaign.name,
  subject: campaign.subject,
  preview_text: campaign.previewText,
  html: campaign.body && "html" in campaign.body ? campaign.body.html : null,
  blocks: campaign.body && "blocks" in campaign.body ? JSON.stringify(campaign.body.blocks) : null,
  tracking_code: campaign.trackingCode,
  labels: JSON.stringify(campaign.labels),
  target_lists: campaign.targetLists ? JSON.stringify(campaign.targetLists) : null,
  sender_profile_id: campaign.identity.senderProfileId,
  from_email: campaign.identity.fromEmail,
  from_name: campaign.identity.fromName,
  reply_profile_id: campaign.identity.replyProfileId,
  reply_to: campaign.identity.replyTo,
  reply_to_name: campaign.identity.replyToName,
  cc_emails: JSON.stringify(campaign.ccEmails),
  bcc_emails: JSON.stringify(campaign.bccEmails),
  campaign_data: JSON.stringify(campaign.campaignData),
  computed_lists: campaign.computedLists.length > 0 ? JSON.stringify(campaign.computedLists) : null,
  max_recipients: campaign.maxRecipients,
  status: campaign.status,
  scheduled_at: toDbDate(campaign.schedule.scheduledAt),
  scheduled_timezone: campaign.schedule.scheduledTimezone,
  send_in_recipient_timezone: campaign.schedule.sendInRecipientTimezone,
  spread_over_hours: campaign.schedule.spreadOverHours,
  recurring_interval: campaign.schedule.recurringInterval,
  recurrence_anchor_at: toDbDate(campaign.schedule.recurrenceAnchor),
  send_time_optimization: campaign.schedule.sendTimeOptimization,
  send_time_window_hours: campaign.schedule.sendTimeWindowHours,
  sent_at: toDbDate(campaign.sentAt),
  pause_reason: campaign.pauseReason ?? null,
  updated_at: toDbDate(campaign.updatedAt),
});

/** A new campaign's row: every saved column and the ones written once. */
const insertedRow = (campaign: Campaign) => ({
  id: campaign.id,
  company_id: campaign.companyId,
  ...savedColumns(campaign),
  source: campaign.source,
  external_id: campaign.externalId,
  created_at: toDbDate(campaign.createdAt),
});

/** `campaigns`: those made here and the drafts migrations imported, alike. */
export class KnexCampaignRepository implements CampaignRepository {
  constructor(private readonly knex: Knex) {}

  private filtered(companyId: string, filter: { status?: CampaignStatus | undefined; label?: string | undefined }): Knex.QueryBuilder {
    const query = this.knex("campaigns").where({ company_id: companyId });
    if (filter.status !== undefined) query.where({ status: filter.status });
    if (filter.label !== undefined) {
      if (isPostgres(this.knex)) query.whereRaw("labels @> ?::jsonb", [JSON.stringify([filter.label])]);
      else query.whereRaw("exists (select 1 from json_each(campaigns.labels) where json_each.value = ?)", [filter.label]);
    }
    return query;
  }

  async list(
    companyId: string,
    filter: { status?: CampaignStatus | undefined; label?: string | undefined; limit: number; offset: number },
  ): Promise<CampaignPage> {
    const rows = await this.filtered(companyId, filter)
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(filter.limit)
      .offset(filter.offset);
    const [counted] = await this.filtered(companyId, filter).count({ total: "*" });
    return { campaigns: rows.map(toCampaign), total: decodeRow(t.type({ total: DbInteger }), counted, "campaigns").total };
  }

  async find(companyId: string, campaignId: string): Promise<Campaign | null> {
    const row = await this.knex("campaigns").where({ company_id: companyId, id: campaignId }).first();
    return row ? toCampaign(row) : null;
  }

  async insert(campaign: Campaign): Promise<void> {
    await this.knex("campaigns").insert(insertedRow(campaign));
  }

  async insertOccurrence(campaign: Campaign, goals: readonly CampaignGoal[]): Promise<boolean> {
    const previous = campaign.previousOccurrenceId;
    if (!previous) throw new Error(`campaign ${campaign.id} is not an occurrence: it names no previous one`);
    return this.knex.transaction(async (trx) => {
      // The unique index backs this check against a finish handled at once by two workers.
      if (await trx("campaigns").where({ company_id: campaign.companyId, previous_occurrence_id: previous }).first("id")) return false;
      await trx("campaigns").insert({ ...insertedRow(campaign), previous_occurrence_id: previous });
      if (goals.length > 0) await trx("campaign_goals").insert(goals.map(goalRow));
      return true;
    });
  }

  async save(campaign: Campaign, expected: CampaignStatus): Promise<boolean> {
    const updated = await this.knex("campaigns").where({ company_id: campaign.companyId, id: campaign.id, status: expected }).update(savedColumns(campaign));
    return updated > 0;
  }

  async delete(companyId: string, campaignId: string, expected: CampaignStatus): Promise<boolean> {
    return (await this.knex("campaigns").where({ company_id: companyId, id: campaignId, status: expected }).delete()) > 0;
  }
}
