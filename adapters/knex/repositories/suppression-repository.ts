import * as t from "io-ts";
import type { Knex } from "knex";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { SUPPRESSION_REASONS, type Suppression, type SuppressionReason } from "../../../core/suppressions/model.js";
import type { SuppressionRepository } from "../../../core/suppressions/ports.js";
import { DbDate, decodeRow, toDbDate } from "../row-codecs.js";

const SuppressionRow = t.type({
  id: t.string,
  company_id: t.string,
  email: t.string,
  reason: oneOf(SUPPRESSION_REASONS),
  email_send_id: t.union([t.string, t.null]),
  created_at: DbDate,
});

/** A `suppressions` row as the domain sees it (also used by the search). */
export function toSuppression(row: unknown): Suppression {
  const r = decodeRow(SuppressionRow, row, "suppressions");
  return { id: r.id, companyId: r.company_id, email: r.email, reason: r.reason, emailSendId: r.email_send_id, createdAt: r.created_at };
}

const normalise = (email: string): string => email.trim().toLowerCase();

/** `suppressions`: one row per company and lower-cased address (the unique index decides races). */
export class KnexSuppressionRepository implements SuppressionRepository {
  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
  ) {}

  async add(input: { companyId: string; email: string; reason: SuppressionReason; emailSendId: string | null; at: Date }): Promise<Suppression> {
    const email = normalise(input.email);
    // Insert-or-ignore on (company_id, email): of concurrent adds one row wins, and its reason stays.
    await this.knex("suppressions")
      .insert({
        id: this.ids.next("sup"),
        company_id: input.companyId,
        email,
        reason: input.reason,
        email_send_id: input.emailSendId,
        created_at: toDbDate(input.at),
      })
      .onConflict(["company_id", "email"])
      .ignore();
    // Removed meanwhile (a concurrent remove): add it again.
    return (await this.find(input.companyId, email)) ?? this.add(input);
  }

  async find(companyId: string, email: string): Promise<Suppression | null> {
    const row = await this.knex("suppressions")
      .where({ company_id: companyId, email: normalise(email) })
      .first();
    return row ? toSuppression(row) : null;
  }

  async findMany(companyId: string, emails: readonly string[]): Promise<Suppression[]> {
    if (emails.length === 0) return [];
    const rows = await this.knex("suppressions")
      .where({ company_id: companyId })
      .whereIn("email", [...new Set(emails.map(normalise))]);
    return rows.map(toSuppression);
  }

  async remove(companyId: string, email: string, reasons: readonly SuppressionReason[]): Promise<boolean> {
    if (reasons.length === 0) return false;
    return (
      (await this.knex("suppressions")
        .where({ company_id: companyId, email: normalise(email) })
        .whereIn("reason", [...reasons])
        .delete()) > 0
    );
  }
}
