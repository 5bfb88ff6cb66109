import * as t from "io-ts";
import type { Knex } from "knex";
import { DELIVERY_STATUSES, PROVIDERS, type DeliveryOutcome, type DeliveryStatus, type IntegrationDelivery } from "../../../core/integrations/model.js";
import type { DeliveryFilter, IntegrationDeliveryRepository } from "../../../core/integrations/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { DbDate, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { isUniqueViolation } from "../unique-violation.js";

const TABLE = "integration_deliveries";

const Outcome = t.intersection([t.type({ subscriberIds: t.array(t.string), events: t.array(t.string) }), t.partial({ reason: t.string })]);

const DeliveryRow = t.type({
  id: t.string,
  company_id: t.string,
  integration_id: t.string,
  provider: oneOf(PROVIDERS),
  provider_event_id: t.string,
  event_type: t.string,
  status: oneOf(DELIVERY_STATUSES),
  body: t.string,
  outcome: t.union([dbJson(Outcome), t.null]),
  error: t.union([t.string, t.null]),
  received_at: DbDate,
  processed_at: DbNullableDate,
});

function toDelivery(row: unknown): IntegrationDelivery {
  const r = decodeRow(DeliveryRow, row, TABLE);
  return {
    id: r.id,
    companyId: r.company_id,
    integrationId: r.integration_id,
    provider: r.provider,
    providerEventId: r.provider_event_id,
    eventType: r.event_type,
    status: r.status,
    body: r.body,
    outcome: r.outcome,
    error: r.error,
    receivedAt: r.received_at,
    processedAt: r.processed_at,
  };
}

/** `integration_deliveries`: the webhook inbox, one row per company, provider and provider event ID. */
export class KnexIntegrationDeliveryRepository implements IntegrationDeliveryRepository {
  constructor(private readonly knex: Knex) {}

  async insert(delivery: IntegrationDelivery): Promise<boolean> {
    try {
      await this.knex(TABLE).insert({
        id: delivery.id,
        company_id: delivery.companyId,
        integration_id: delivery.integrationId,
        provider: delivery.provider,
        provider_event_id: delivery.providerEventId,
        event_type: delivery.eventType,
        status: delivery.status,
        body: delivery.body,
        outcome: delivery.outcome ? JSON.stringify(delivery.outcome) : null,
        error: delivery.error,
        received_at: toDbDate(delivery.receivedAt),
        processed_at: toDbDate(delivery.processedAt),
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async findByEvent(companyId: string, provider: string, providerEventId: string): Promise<IntegrationDelivery | null> {
    const row = await this.knex(TABLE).where({ company_id: companyId, provider, provider_event_id: providerEventId }).first();
    return row ? toDelivery(row) : null;
  }

  async find(companyId: string, deliveryId: string): Promise<IntegrationDelivery | null> {
    const row = await this.knex(TABLE).where({ company_id: companyId, id: deliveryId }).first();
    return row ? toDelivery(row) : null;
  }

  async settle(companyId: string, deliveryId: string, status: DeliveryStatus, outcome: DeliveryOutcome | null, error: string | null, at: Date): Promise<void> {
    await this.knex(TABLE)
      .where({ company_id: companyId, id: deliveryId })
      .update({ status, outcome: outcome ? JSON.stringify(outcome) : null, error, processed_at: toDbDate(at) });
  }

  async markQueued(companyId: string, deliveryId: string): Promise<void> {
    await this.knex(TABLE).where({ company_id: companyId, id: deliveryId, status: "received" }).update({ status: "queued" });
  }

  async list(companyId: string, filter: DeliveryFilter): Promise<IntegrationDelivery[]> {
    const query = this.knex(TABLE).where({ company_id: companyId }).andWhere("received_at", ">=", toDbDate(filter.since));
    if (filter.integrationId) query.andWhere({ integration_id: filter.integrationId });
    if (filter.provider) query.andWhere({ provider: filter.provider });
    if (filter.status) query.andWhere({ status: filter.status });
    return (
      await query
        .orderBy([
          { column: "received_at", order: "desc" },
          { column: "id", order: "desc" },
        ])
        .limit(filter.limit)
    ).map(toDelivery);
  }
}
