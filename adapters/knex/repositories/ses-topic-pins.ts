import type { Knex } from "knex";
import type { SesTopicPins } from "../../../core/delivery/ports.js";
import { toDbDate } from "../row-codecs.js";

/** `ses_topic_pins`: one topic per company; the first one in wins (the primary key decides races). */
export class KnexSesTopicPins implements SesTopicPins {
  constructor(private readonly knex: Knex) {}

  async pinIfNone(companyId: string, topicArn: string, at: Date): Promise<string> {
    await this.knex("ses_topic_pins")
      .insert({ company_id: companyId, topic_arn: topicArn, pinned_at: toDbDate(at) })
      .onConflict("company_id")
      .ignore();
    const row = await this.knex("ses_topic_pins").where({ company_id: companyId }).first("topic_arn");
    return String(row.topic_arn);
  }

  async unpin(companyId: string): Promise<string | null> {
    const row = await this.knex("ses_topic_pins").where({ company_id: companyId }).first("topic_arn");
    if (!row) return null;
    await this.knex("ses_topic_pins").where({ company_id: companyId }).delete();
    return String(row.topic_arn);
  }
}
