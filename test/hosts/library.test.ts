import test from "ava";
import { createLifecycle, createTestKit, OPERATOR, SCOPE_CATALOG } from "lifecycle-email";
import { dialects } from "../helpers/databases.js";
import { TEST_CAPACITY } from "../helpers/runtime.js";

test("the package entry builds the memory profile and exposes the use cases", async (t) => {
  const lifecycle = await createLifecycle();
  t.teardown(() => lifecycle.close());
  const created = await lifecycle.useCases.createCompany.execute(OPERATOR, { name: "Embedded", ownerEmail: "dev@example.com", ownerName: "Dev" });
  if (created._tag === "Left") return t.fail(created.left.message);
  const actor = await lifecycle.useCases.authenticate.execute(created.right.plainKey);
  if (actor._tag === "Left") return t.fail(actor.left.message);
  const keys = await lifecycle.useCases.listApiKeys.execute(actor.right);
  t.deepEqual(keys._tag === "Right" && keys.right.map((k) => [k.name, k.isCurrent]), [["Owner key", true]]);
  t.is(SCOPE_CATALOG.length, 63);
});

test("the test kit runs on the memory profile with a manual clock", async (t) => {
  const kit = await createTestKit({ start: "2030-01-01T00:00:00.000Z" });
  t.teardown(() => kit.close());
  const acme = await kit.createCompany("Acme");
  t.is(acme.company.createdAt.toISOString(), "2030-01-01T00:00:00.000Z");
  kit.clock.advance(5_000);
  const created = await kit.lifecycle.useCases.createApiKey.execute(acme.actor, { name: "later" });
  t.is(created._tag === "Right" && created.right.createdAt, "2030-01-01T00:00:05.000Z");
  t.is(await kit.runDueJobs(), 0);
});

for (const dialect of dialects()) {
  test(`${dialect.name}: createLifecycle opens a real database and serves HTTP from it`, async (t) => {
    const database = await dialect.create();
    t.teardown(() => database.drop());
    const lifecycle = await createLifecycle({ database: dialect.name, url: database.url, capacity: TEST_CAPACITY });
    t.teardown(() => lifecycle.close());
    const created = await lifecycle.useCases.createCompany.execute(OPERATOR, { name: "Stored", ownerEmail: "ops@example.com" });
    if (created._tag === "Left") return t.fail(created.left.message);
    const server = lifecycle.httpApp().listen(0, "127.0.0.1");
    t.teardown(() => server.close());
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/subscribers/me`, { headers: { authorization: `Bearer ${created.right.plainKey}` } });
    t.deepEqual(await response.json(), { success: true, account: { companyId: created.right.company.id, companyName: "Stored", apiKeyType: "company" } });
  });
}
