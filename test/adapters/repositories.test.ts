import test from "ava";
import { KnexApiKeyRepository } from "../../adapters/knex/repositories/api-key-repository.js";
import { KnexTenancyRepository } from "../../adapters/knex/repositories/tenancy-repository.js";
import { migrateToLatest } from "../../adapters/knex/migrate.js";
import { migrationSource } from "../../adapters/knex/migrations/index.js";
import type { ApiKey } from "../../core/api-keys/model.js";
import type { TeamMember } from "../../core/tenancy/model.js";
import { dialects, openTestKnex } from "../helpers/databases.js";

const at = (iso: string) => new Date(iso);

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  async function repositories(t: import("ava").ExecutionContext) {
    const knex = await openTestKnex(t, dialect);
    const all = (await migrationSource.getMigrations([])).map((migration) => migrationSource.getMigrationName(migration));
    t.is(all[0], "0001-tenancy-and-api-keys");
    t.deepEqual(await migrateToLatest(knex), all, "a new database gets every migration, in order");
    t.deepEqual(await migrateToLatest(knex), [], "a second run applies nothing");
    return { knex, tenancy: new KnexTenancyRepository(knex), keys: new KnexApiKeyRepository(knex) };
  }

  const company = (id: string) => ({ id, name: `Company ${id}`, websiteUrl: null, createdAt: at("2026-01-01T00:00:00.000Z") });
  const newMember = (id: string, companyId: string, email: string, role: TeamMember["role"] = "owner") => ({
    id,
    companyId,
    role,
    createdAt: at("2026-01-01T00:00:01.000Z"),
    user: { id: `usr_${id}`, email, name: null, createdAt: at("2026-01-01T00:00:01.000Z") },
  });
  const key = (id: string, member: TeamMember, overrides: Partial<ApiKey> = {}): ApiKey => ({
    id,
    companyId: member.companyId,
    memberId: member.id,
    name: `key ${id}`,
    prefix: "lcsk_abcdefg",
    keyHash: `hash-${id}`.padEnd(64, "0"),
    preset: "custom",
    selectedScopes: ["tags:read", "account:read"],
    deviceName: null,
    lastUsedAt: null,
    revokedAt: null,
    createdAt: at("2026-01-02T03:04:05.678Z"),
    updatedAt: at("2026-01-02T03:04:05.678Z"),
    ...overrides,
  });

  test(name("tenancy: one person, several companies, a role in each"), async (t) => {
    const { tenancy } = await repositories(t);
    const ownerA = await tenancy.createCompany(company("co_a"), newMember("mem_a", "co_a", "pat@example.com"));
    await tenancy.createCompany(company("co_b"), newMember("mem_b", "co_b", "sam@example.com"));
    const patInB = await tenancy.addMember(newMember("mem_pat_b", "co_b", "pat@example.com", "marketer"));

    t.is(patInB.userId, ownerA.userId, "the same user");
    t.is(patInB.role, "marketer");
    t.deepEqual(
      (await tenancy.listMemberships(ownerA.userId)).map((m) => [m.company.id, m.member.role]),
      [
        ["co_a", "owner"],
        ["co_b", "marketer"],
      ],
    );
    t.deepEqual(await tenancy.findMemberOfUser("co_b", ownerA.userId), patInB);
    t.is(await tenancy.findMemberOfUser("co_x", ownerA.userId), null);
    t.is((await tenancy.findMemberByEmail("co_a", "pat@example.com"))?.id, "mem_a");
    t.is(await tenancy.findMemberByEmail("co_a", "sam@example.com"), null, "scoped by company");
    t.is(await tenancy.findMember("co_a", "mem_b"), null, "scoped by company");
    t.is((await tenancy.findFirstMemberWithRole("co_b", "owner"))?.id, "mem_b");
    t.deepEqual((await tenancy.findCompany("co_a"))?.createdAt, at("2026-01-01T00:00:00.000Z"));
    await t.throwsAsync(tenancy.addMember(newMember("mem_dup", "co_a", "pat@example.com")), { any: true }, "one membership per person and company");
  });

  test(name("api keys: stored and read back exactly, found by hash, scoped by company, revoked for good"), async (t) => {
    const { tenancy, keys } = await repositories(t);
    const a = await tenancy.createCompany(company("co_a"), newMember("mem_a", "co_a", "a@example.com"));
    const b = await tenancy.createCompany(company("co_b"), newMember("mem_b", "co_b", "b@example.com"));
    const custom = key("key_1", a);
    const full = key("key_2", a, { preset: "full_access", selectedScopes: null, deviceName: "laptop" });
    await keys.insert(custom);
    await keys.insert(full);
    await keys.insert(key("key_3", b));

    t.deepEqual(await keys.findActiveByHash(custom.keyHash), { key: custom, member: a });
    t.deepEqual((await keys.findActive("co_a", "key_2"))?.key, full);
    t.is(await keys.findActive("co_b", "key_1"), null);
    t.deepEqual(
      (await keys.listActive("co_a")).map((r) => r.key.id),
      ["key_1", "key_2"],
    );

    t.false(await keys.revoke("co_b", "key_1", at("2026-02-01T00:00:00.000Z")), "another company cannot revoke it");
    t.false(await keys.update("co_b", "key_1", { name: "stolen" }, at("2026-02-01T00:00:00.000Z")));
    t.true(await keys.revoke("co_a", "key_1", at("2026-02-01T00:00:00.000Z")));
    t.false(await keys.revoke("co_a", "key_1", at("2026-02-02T00:00:00.000Z")), "only once");
    t.is(await keys.findActiveByHash(custom.keyHash), null);
    t.deepEqual(
      (await keys.listActive("co_a")).map((r) => r.key.id),
      ["key_2"],
    );

    t.true(
      await keys.update(
        "co_a",
        "key_2",
        { name: "renamed", selection: { preset: "read_only", selectedScopes: ["tags:read"] } },
        at("2026-03-01T00:00:00.000Z"),
      ),
    );
    const updated = (await keys.findActive("co_a", "key_2"))!.key;
    t.is(updated.name, "renamed");
    t.deepEqual(updated.selectedScopes, ["tags:read"]);
    t.deepEqual(updated.updatedAt, at("2026-03-01T00:00:00.000Z"));
  });

  test(name("api keys: use is recorded at most once per interval"), async (t) => {
    const { tenancy, keys } = await repositories(t);
    const a = await tenancy.createCompany(company("co_a"), newMember("mem_a", "co_a", "a@example.com"));
    await keys.insert(key("key_1", a));
    const lastUsed = async () => (await keys.findActive("co_a", "key_1"))!.key.lastUsedAt?.toISOString() ?? null;

    await keys.recordUse("key_1", at("2026-05-01T00:00:00.000Z"), 60_000);
    t.is(await lastUsed(), "2026-05-01T00:00:00.000Z");
    await keys.recordUse("key_1", at("2026-05-01T00:00:59.000Z"), 60_000);
    t.is(await lastUsed(), "2026-05-01T00:00:00.000Z");
    await keys.recordUse("key_1", at("2026-05-01T00:01:00.000Z"), 60_000);
    t.is(await lastUsed(), "2026-05-01T00:01:00.000Z");
  });

  test(name("a row the code cannot read fails loudly, naming the table"), async (t) => {
    const { tenancy, keys, knex } = await repositories(t);
    const a = await tenancy.createCompany(company("co_a"), newMember("mem_a", "co_a", "a@example.com"));
    await keys.insert(key("key_1", a));
    await knex("api_keys").where({ id: "key_1" }).update({ preset: "root" });
    const error = await t.throwsAsync(keys.findActive("co_a", "key_1"));
    t.regex(error.message, /^Unreadable api_keys row: preset/);
  });
}
