import test, { type ExecutionContext } from "ava";
import { migrateToLatest } from "../../adapters/knex/migrate.js";
import { KnexIdempotencyStore } from "../../adapters/knex/repositories/idempotency-store.js";
import type { RequestFingerprint } from "../../core/idempotency/ports.js";
import { dialects, openTestKnex } from "../helpers/databases.js";

const HOUR = 60 * 60 * 1000;
const now = new Date("2026-03-01T12:00:00.000Z");
const later = (ms: number) => new Date(now.getTime() + ms);
const request = (requestHash = "a".repeat(64)): RequestFingerprint => ({ method: "POST", path: "/transactional", requestHash });

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: idempotency store ${title}`;

  async function store(t: ExecutionContext) {
    const knex = await openTestKnex(t, dialect);
    await migrateToLatest(knex);
    await knex("companies").insert([
      { id: "co_a", name: "A", created_at: now.toISOString() },
      { id: "co_b", name: "B", created_at: now.toISOString() },
    ]);
    return { knex, store: new KnexIdempotencyStore(knex) };
  }

  test(name("starts, reports in flight or mismatch, replays once complete, frees on abandon"), async (t) => {
    const { store: s } = await store(t);
    t.deepEqual(await s.begin("co_a", "k1", request(), now, 24 * HOUR), { kind: "started" });
    t.deepEqual(await s.begin("co_a", "k1", request(), now, 24 * HOUR), { kind: "in_flight" });
    t.deepEqual(await s.begin("co_a", "k1", request("b".repeat(64)), now, 24 * HOUR), { kind: "mismatch" });
    t.deepEqual(await s.begin("co_a", "k1", { ...request(), path: "/other" }, now, 24 * HOUR), { kind: "mismatch" });
    t.deepEqual(await s.begin("co_b", "k1", request(), now, 24 * HOUR), { kind: "started" }, "per company");

    const body = { success: true, id: "msg_1", nested: { list: [1, "two", null] } };
    await s.complete("co_a", "k1", 202, body);
    t.deepEqual(await s.begin("co_a", "k1", request(), later(HOUR), 24 * HOUR), { kind: "replay", status: 202, body });
    await s.abandon("co_a", "k1");
    t.is((await s.begin("co_a", "k1", request(), later(HOUR), 24 * HOUR)).kind, "replay", "a completed record is not abandoned");

    await s.abandon("co_b", "k1");
    t.deepEqual(await s.begin("co_b", "k1", request(), now, 24 * HOUR), { kind: "started" });
  });

  test(name("treats an expired record as absent and replaces it"), async (t) => {
    const { knex, store: s } = await store(t);
    await s.begin("co_a", "k1", request(), now, HOUR);
    await s.complete("co_a", "k1", 200, { first: true });
    t.is((await s.begin("co_a", "k1", request("c".repeat(64)), later(HOUR - 1), HOUR)).kind, "mismatch");
    t.deepEqual(await s.begin("co_a", "k1", request("c".repeat(64)), later(HOUR), HOUR), { kind: "started" });
    const rows = await knex("idempotency_keys").where({ company_id: "co_a" });
    t.is(rows.length, 1);
    t.is(rows[0].status, "in_flight");
    t.is(rows[0].request_hash, "c".repeat(64));
  });

  test(name("lets exactly one of many concurrent requests start, also over an expired record"), async (t) => {
    const { store: s } = await store(t);
    const race = async (at: Date) => (await Promise.all(Array.from({ length: 8 }, () => s.begin("co_a", "k1", request(), at, HOUR)))).map((r) => r.kind).sort();
    t.deepEqual(await race(now), ["in_flight", "in_flight", "in_flight", "in_flight", "in_flight", "in_flight", "in_flight", "started"]);
    await s.complete("co_a", "k1", 201, { ok: true });
    t.deepEqual(await race(later(2 * HOUR)), ["in_flight", "in_flight", "in_flight", "in_flight", "in_flight", "in_flight", "in_flight", "started"]);
  });
}
