import * as t from "io-ts";
import type { Knex } from "knex";
import type { OptIn } from "../../../core/opt-in/model.js";
import type { OptInRepository } from "../../../core/opt-in/ports.js";
import { DbDate, DbNullableDate, decodeRow, toDbDate } from "../row-codecs.js";

const OptInRow = t.type({
  company_id: t.string,
  subscriber_id: t.string,
  requested_at: DbDate,
  last_email_at: DbNullableDate,
  confirmed_at: DbNullableDate,
});

/** `opt_ins`: one row per contact asked to confirm; the contact's deletion removes it. */
export class KnexOptInRepository implements OptInRepository {
  constructor(private readonly knex: Knex) {}

  async start(companyId: string, subscriberId: string, at: Date): Promise<void> {
    await this.knex("opt_ins")
      .insert({ company_id: companyId, subscriber_id: subscriberId, requested_at: toDbDate(at) })
      .onConflict("subscriber_id")
      .ignore();
  }

  async find(companyId: string, subscriberId: string): Promise<OptIn | null> {
    const row = await this.knex("opt_ins").where({ company_id: companyId, subscriber_id: subscriberId }).first();
    if (!row) return null;
    const r = decodeRow(OptInRow, row, "opt_ins");
    return { companyId: r.company_id, subscriberId: r.subscriber_id, requestedAt: r.requested_at, lastEmailAt: r.last_email_at, confirmedAt: r.confirmed_at };
  }

  async claimEmail(companyId: string, subscriberId: string, at: Date, since: Date): Promise<boolean> {
    const claimed = await this.knex("opt_ins")
      .where({ company_id: companyId, subscriber_id: subscriberId })
      .whereNull("confirmed_at")
      .where((query) => query.whereNull("last_email_at").orWhere("last_email_at", "<=", toDbDate(since)))
      .update({ last_email_at: toDbDate(at) });
    return claimed > 0;
  }

  async releaseEmail(companyId: string, subscriberId: string, previous: Date | null): Promise<void> {
    await this.knex("opt_ins")
      .where({ company_id: companyId, subscriber_id: subscriberId })
      .update({ last_email_at: toDbDate(previous) });
  }

  async confirm(companyId: string, subscriberId: string, at: Date): Promise<boolean> {
    const confirmed = await this.knex("opt_ins")
      .where({ company_id: companyId, subscriber_id: subscriberId })
      .whereNull("confirmed_at")
      .update({ confirmed_at: toDbDate(at) });
    return confirmed > 0;
  }

  async unconfirmedAmong(companyId: string, emails: readonly string[]): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const rows: Array<{ email: string }> = await this.knex("opt_ins")
      .join("subscribers", "subscribers.id", "opt_ins.subscriber_id")
      .where("opt_ins.company_id", companyId)
      .where("subscribers.company_id", companyId)
      .whereNull("opt_ins.confirmed_at")
      .whereIn("subscribers.email", [...new Set(emails)])
      .select("subscribers.email");
    return new Set(rows.map((row) => row.email));
  }
}
