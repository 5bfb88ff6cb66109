import type { Knex } from "knex";
import type { DeliveryWebhookSecrets } from "../../../core/delivery/ports.js";
import { toDbDate } from "../row-codecs.js";

/** `delivery_webhook_secrets`: one sealed secret per company. */
export class KnexDeliveryWebhookSecrets implements DeliveryWebhookSecrets {
  constructor(private readonly knex: Knex) {}

  async findSealed(companyId: string): Promise<string | null> {
    const row = await this.knex("delivery_webhook_secrets").where({ company_id: companyId }).first("secret_sealed");
    return row ? String(row.secret_sealed) : null;
  }

  async saveSealed(companyId: string, sealed: string, at: Date): Promise<void> {
    await this.knex("delivery_webhook_secrets")
      .insert({ company_id: companyId, secret_sealed: sealed, created_at: toDbDate(at) })
      .onConflict("company_id")
      .merge(["secret_sealed", "created_at"]);
  }
}
