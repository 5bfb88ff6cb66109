import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Knex } from "knex";
import { toDbDate } from "../adapters/knex/row-codecs.js";
import { CountSegment } from "../core/segments/count-segment.js";
import { CreateSegment } from "../core/segments/create-segment.js";
import type { Actor } from "../core/shared/actor.js";
import { createCompanyFixture } from "../fixtures/companies.js";
import { infoLogTo } from "./log-file.js";
import { durationLine } from "./rounds.js";
import { startRuntime } from "../hosts/runtime.js";
import { count } from "./settings.js";
import { medianOfRuns, random } from "./statistics.js";

/**
 * `GET /segments/{id}/count` work without HTTP: the CountSegment use case (segment lookup,
 * reference check, one SQL query) over 100,000 contacts in a SQLite file, for a 3-condition
 * filter: status is active AND attribute plan is pro AND tag contains vip. The figure is the
 * median of several runs after a warm-up.
 */

/** Contacts seeded (BENCH_CONTACTS, smaller in the quick run). */
const CONTACTS = count("BENCH_CONTACTS", 100_000);
const GOAL_MS = 200;
/** Knex writes a multi-row insert on SQLite as one compound SELECT, which SQLite caps at 500 terms. */
const BATCH = 400;

const PLANS = ["free", "pro", "team", "enterprise"];
const TAGS = ["vip", "beta", "newsletter", "churn-risk", "trial"];

/** Bulk rows in one transaction, in batches: returns how many contacts the filter should match. */
async function seed(knex: Knex, companyId: string): Promise<number> {
  const next = random(42);
  const created = new Date("2026-01-01T00:00:00.000Z").getTime();
  const tagIds = TAGS.map((name) => `tag_bench_${name}`);
  let expected = 0;
  await knex.transaction(async (trx) => {
    const now = toDbDate(new Date(created));
    await trx("tags").insert(TAGS.map((name, i) => ({ id: tagIds[i], company_id: companyId, name, created_at: now, updated_at: now })));
    for (let start = 0; start < CONTACTS; start += BATCH) {
      const subscribers: Record<string, unknown>[] = [];
      const tags: Record<string, unknown>[] = [];
      for (let i = start; i < Math.min(start + BATCH, CONTACTS); i += 1) {
        const id = `sub_bench_${String(i).padStart(6, "0")}`;
        const roll = next();
        const status = roll < 0.85 ? "active" : roll < 0.95 ? "unsubscribed" : "bounced";
        const plan = PLANS[Math.floor(next() * PLANS.length)]!;
        const at = toDbDate(new Date(created + i * 60_000));
        subscribers.push({
          id,
          company_id: companyId,
          email: `contact${i}@example${i % 97}.com`,
          first_name: `First${i % 1000}`,
          last_name: `Last${i % 1300}`,
          status,
          custom_attributes: JSON.stringify({
            plan,
            seats: Math.floor(next() * 50),
            company: `Company ${i % 5000}`,
            signupSource: i % 3 === 0 ? "ads" : "organic",
          }),
          created_at: at,
          updated_at: at,
        });
        let vip = false;
        for (const [t, tagId] of tagIds.entries()) {
          if (next() < 0.2) {
            tags.push({ company_id: companyId, subscriber_id: id, tag_id: tagId, created_at: at });
            if (t === 0) vip = true;
          }
        }
        if (status === "active" && plan === "pro" && vip) expected += 1;
      }
      await trx("subscribers").insert(subscribers);
      for (let at = 0; at < tags.length; at += BATCH) await trx("subscriber_tags").insert(tags.slice(at, at + BATCH));
    }
  });
  return expected;
}

export async function segmentCount(): Promise<string> {
  const runs = count("BENCH_ROUNDS", 15);
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  const runtime = await startRuntime({ databaseUrl: `sqlite:${join(dir, "bench.sqlite")}`, logger: infoLogTo("/dev/null"), baseUrl: "http://127.0.0.1" });
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const seeding = performance.now();
    const expected = await seed(runtime.knex, company.companyId);
    process.stderr.write(`segment-count: ${CONTACTS} contacts seeded in ${Math.round(performance.now() - seeding)} ms; ${expected} match\n`);

    // Only the company matters to these use cases.
    const actor = { companyId: company.companyId, memberId: company.ownerMemberId, apiKeyId: company.ownerKeyId } as Actor;
    const created = await runtime.container.get(CreateSegment).execute(actor, {
      name: "Active pro VIPs",
      filterJoinOperator: "and",
      filters: [
        { field: "status", operator: "is", value: "active" },
        { field: "attribute", operator: "is", value: "plan:pro" },
        { field: "tag", operator: "contains", value: "vip" },
      ],
    });
    if (created._tag === "Left") throw new Error(`bench segment-count: segment not created: ${created.left.message}`);
    const segmentId = created.right.id;
    const countSegment = runtime.container.get(CountSegment);

    const once = async (): Promise<number> => {
      const started = performance.now();
      const result = await countSegment.execute(actor, segmentId);
      const elapsed = performance.now() - started;
      if (result._tag === "Left") throw new Error(`bench segment-count: ${result.left.message}`);
      if (result.right.count !== expected) throw new Error(`bench segment-count: counted ${result.right.count}, expected ${expected}`);
      return elapsed;
    };
    return durationLine("segment-count", await medianOfRuns(once, runs), runs, GOAL_MS, ["LOG_LEVEL=info to /dev/null"]);
  } finally {
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
