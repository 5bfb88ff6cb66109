import test from "ava";
import { migrateToLatest } from "../../adapters/knex/migrate.js";
import { KnexEmailSendRepository } from "../../adapters/knex/repositories/email-send-repository.js";
import { toDbDate } from "../../adapters/knex/row-codecs.js";
import { UlidIdGenerator } from "../../adapters/system/ulid-id-generator.js";
import { DELIVERY_EVENT_TYPES, SEND_STATUSES } from "../../core/delivery/model.js";
import { statusOnDeliveryEvent } from "../../core/email-sends/status-on-delivery-event.js";
import { sendHistoryRows } from "../../fixtures/email-sends.js";
import { dialects, openTestKnex } from "../helpers/databases.js";
import { insertCompanyRow } from "../helpers/contact-rows.js";

const CREATED = new Date("2026-11-22T09:00:00.000Z");
const EVENT_AT = new Date("2026-11-22T10:00:00.000Z");

for (const dialect of dialects()) {
  test(`${dialect.name}: recording a delivery event changes the stored status exactly as statusOnDeliveryEvent says, for every pair`, async (t) => {
    const knex = await openTestKnex(t, dialect);
    await migrateToLatest(knex);
    await insertCompanyRow(knex, "co_a");
    const ids = new UlidIdGenerator();
    const sends = new KnexEmailSendRepository(knex, ids);
    const pairs = SEND_STATUSES.flatMap((status) => DELIVERY_EVENT_TYPES.map((event) => ({ status, event, id: `es_${status}_${event}` })));
    for (const { status, id } of pairs) {
      const { send } = sendHistoryRows("co_a", { id, sentAt: CREATED });
      await knex("email_sends").insert({ ...send, status, updated_at: toDbDate(CREATED) });
    }

    for (const { event, id } of pairs) {
      const bounce = event === "bounced" ? { bounceType: "Permanent" as const, bounceSubType: "General" } : {};
      t.true(
        await sends.recordDeliveryEvent("co_a", id, ids.next("eev"), { type: event, providerEventId: `p_${id}`, occurredAt: EVENT_AT, ...bounce }, EVENT_AT),
      );
    }

    for (const { status, event, id } of pairs) {
      const stored = await sends.get("co_a", id);
      const next = statusOnDeliveryEvent(status, event);
      t.is(stored?.status, next ?? status, `${status} + ${event}`);
      t.deepEqual(stored?.updatedAt, next === null ? CREATED : EVENT_AT, `${status} + ${event}: updated_at`);
    }
  });
}
