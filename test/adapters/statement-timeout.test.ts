import type { AddressInfo } from "node:net";
import test from "ava";
import express from "express";
import { createKnex, limitSqliteStatements } from "../../adapters/knex/connection.js";
import { isStatementTimeout } from "../../adapters/knex/statement-timeout.js";
import { errorHandler } from "../../hosts/http/middleware/errors.js";
import { createLogger } from "../../hosts/logger.js";
import { dialects } from "../helpers/databases.js";
import { startTestRuntime } from "../helpers/runtime.js";

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

const sqlite = dialects().find((dialect) => dialect.name === "sqlite")!;

/** Counts to a billion: minutes of work for SQLite, unless something stops it. */
const COUNT_TO_A_BILLION = "with recursive n(x) as (select 1 union all select x + 1 from n where x < 1000000000) select count(*) as n from n";

async function limitedSqlite(t: { teardown(fn: () => Promise<void>): void }, ms: number) {
  const database = await sqlite.create();
  const knex = createKnex(database.url);
  t.teardown(async () => {
    await knex.destroy();
    await database.drop();
  });
  const unlimited = await limitSqliteStatements(knex, ms);
  if (unlimited) throw new Error(`the statement time limit extension is not built (npm install builds it): ${unlimited}`);
  return knex;
}

// better-sqlite3's SqliteError is not a native Error to ava: `any` lets it be caught.
test("sqlite: a statement past its time limit is stopped with the error the API maps to 503, and the connection serves the next", async (t) => {
  const knex = await limitedSqlite(t, 150);
  const started = Date.now();
  const error = await t.throwsAsync(knex.raw(COUNT_TO_A_BILLION), { any: true });
  const took = Date.now() - started;
  t.true(isStatementTimeout(error), String(error));
  t.true(took >= 150 && took < 2_000, `stopped after ${took} ms`);
  t.deepEqual(await knex.raw("select 1 as one"), [{ one: 1 }]);
  // Each statement has its own time: many short ones in a row are never stopped.
  for (let i = 0; i < 20; i += 1) {
    await knex.raw("with recursive n(x) as (select 1 union all select x + 1 from n where x < 100000) select count(*) as n from n");
  }
  // 0 removes the limit.
  await limitSqliteStatements(knex, 0);
  const counted = await knex.raw<Array<{ n: number }>>(COUNT_TO_A_BILLION.replace("1000000000", "3000000"));
  t.is(counted[0]!.n, 3_000_000);
});

test("sqlite: a transaction whose write is stopped at the limit rejects with that error and stores nothing", async (t) => {
  const knex = await limitedSqlite(t, 150);
  await knex.schema.createTable("numbers", (table) => table.integer("x"));
  const error = await t.throwsAsync(
    knex.transaction(async (trx) => {
      await trx("numbers").insert({ x: -1 });
      await trx.raw(`insert into numbers ${COUNT_TO_A_BILLION.replace("count(*) as n", "x")}`);
    }),
    { any: true },
  );
  t.true(isStatementTimeout(error), String(error));
  t.deepEqual(await knex("numbers").count({ n: "*" }), [{ n: 0 }]);
  // Stopped inside a savepoint, it takes the whole transaction with it, and still says why.
  const nested = await t.throwsAsync(
    knex.transaction(async (trx) => {
      await trx("numbers").insert({ x: -2 });
      await trx.transaction(async (inner) => inner.raw(`insert into numbers ${COUNT_TO_A_BILLION.replace("count(*) as n", "x")}`));
    }),
    { any: true },
  );
  t.true(isStatementTimeout(nested), String(nested));
  t.deepEqual(await knex("numbers").count({ n: "*" }), [{ n: 0 }]);
  await knex.transaction(async (trx) => trx("numbers").insert({ x: 1 }));
  t.deepEqual(await knex("numbers").select("x"), [{ x: 1 }]);
});

test("sqlite: the server's statements are limited by DB_STATEMENT_TIMEOUT_MS once it has started, and a stopped one answers 503 saying why", async (t) => {
  const database = await sqlite.create();
  const runtime = await startTestRuntime(database, undefined, { capacity: { dbStatementTimeoutMs: 150 } });
  t.teardown(async () => {
    await runtime.close();
    await database.drop();
  });
  const stopped = await t.throwsAsync(runtime.knex.raw(COUNT_TO_A_BILLION), { any: true });
  t.true(isStatementTimeout(stopped), String(stopped));

  // What a request whose statement was stopped answers (the API's own error handler).
  const app = express();
  app.all("/heavy", async (_req, _res, next) => {
    await runtime.knex.raw(COUNT_TO_A_BILLION).then(() => next(new Error("the statement was not stopped")), next);
  });
  app.use(errorHandler(createLogger("silent")));
  const server = app.listen(0, "127.0.0.1");
  t.teardown(() => void server.close());
  await new Promise((resolve) => server.once("listening", resolve));
  const heavy = `http://127.0.0.1:${(server.address() as AddressInfo).port}/heavy`;
  const response = await fetch(heavy);
  t.is(response.status, 503);
  t.is(response.headers.get("retry-after"), "5");
  t.like(await response.json(), {
    success: false,
    code: "SERVICE_UNAVAILABLE",
    error: "The request took longer than the database allows and was stopped. Please retry shortly, or ask for less (a smaller page, narrower filters).",
  });
  // A POST is not told to retry (spec, Errors: a 503 to POST or PATCH carries no Retry-After).
  const posted = await fetch(heavy, { method: "POST" });
  t.is(posted.status, 503);
  t.is(posted.headers.get("retry-after"), null);
  t.like(await posted.json(), { success: false, code: "SERVICE_UNAVAILABLE" });
});
