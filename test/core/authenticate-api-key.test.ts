import test from "ava";
import { createTestKit } from "../../hosts/index.js";
import { createMemberKeyFixture } from "../../fixtures/companies.js";

test("authentication builds the actor from the key, and fails once it is revoked", async (t) => {
  const kit = await createTestKit();
  t.teardown(() => kit.close());
  const { lifecycle } = kit;
  const acme = await kit.createCompany("Acme");

  t.is(acme.actor.companyId, acme.company.id);
  t.is(acme.actor.role, "owner");
  t.is(acme.actor.scopes.size, 63);
  t.is(acme.actor.apiKeyId, acme.apiKey.key.id);

  const marketer = await createMemberKeyFixture(lifecycle.container, acme.company.id, { role: "marketer" });
  const asMarketer = await lifecycle.useCases.authenticate.execute(marketer.key);
  t.is(asMarketer._tag, "Right");
  if (asMarketer._tag === "Right") t.false(asMarketer.right.scopes.has("data_exports:read"));

  const revoked = await lifecycle.useCases.revokeApiKey.execute(acme.actor, marketer.keyId);
  t.is(revoked._tag, "Right");
  t.deepEqual(await lifecycle.useCases.authenticate.execute(marketer.key), {
    _tag: "Left",
    left: { _tag: "Unauthorized", message: "Invalid or missing API key" },
  });
  t.deepEqual(await lifecycle.useCases.authenticate.execute(undefined), await lifecycle.useCases.authenticate.execute("nonsense"));
});

test("a demoted member's full-access key loses the scopes of the old role at once", async (t) => {
  const kit = await createTestKit();
  t.teardown(() => kit.close());
  const acme = await kit.createCompany();
  const admin = await createMemberKeyFixture(kit.lifecycle.container, acme.company.id, { role: "admin", email: "ann@example.com" });
  await kit.lifecycle.container
    .get<import("knex").Knex>(Symbol.for("lifecycle.Database"))("team_members")
    .where({ id: admin.memberId })
    .update({ role: "marketer" });
  const actor = await kit.lifecycle.useCases.authenticate.execute(admin.key);
  t.is(actor._tag, "Right");
  if (actor._tag === "Right") {
    t.is(actor.right.role, "marketer");
    t.false(actor.right.scopes.has("api_keys:manage"));
  }
});
