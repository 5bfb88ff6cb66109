import test from "ava";
import { createKnex } from "../../adapters/knex/connection.js";
import { isStatementTimeout } from "../../adapters/knex/statement-timeout.js";
import { dialects } from "../helpers/databases.js";

const postgres = dialects().find((dialect) => dialect.name === "postgres");
if (postgres) {
  test("postgres: a statement past DB_STATEMENT_TIMEOUT_MS is stopped with an error the API maps to a clear 503", async (t) => {
    const database = await postgres.create();
    const knex = createKnex(database.url, { statementTimeoutMs: 100 });
    t.teardown(async () => {
      await knex.destroy();
      await database.drop();
    });
    const started = Date.now();
    const error = await t.throwsAsync(knex.raw("select pg_sleep(5)"));
    t.true(isStatementTimeout(error));
    t.true(Date.now() - started < 4_000);
    // The connection serves the next statement.
    t.deepEqual((await knex.raw("select 1 as one")).rows, [{ one: 1 }]);
  });
}
