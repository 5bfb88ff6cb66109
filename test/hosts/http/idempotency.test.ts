import test, { type ExecutionContext } from "ava";
import express from "express";
import { AuthenticateApiKey } from "../../../core/api-keys/authenticate-api-key.js";
import { IdempotencyStore } from "../../../core/idempotency/ports.js";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import { authenticate } from "../../../hosts/http/middleware/authenticate.js";
import { errorHandler, notFoundHandler } from "../../../hosts/http/middleware/errors.js";
import { idempotency } from "../../../hosts/http/middleware/idempotency.js";
import { createLogger } from "../../../hosts/logger.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse } from "../../helpers/http-client.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const IN_PROGRESS = { success: false, error: "A request with this Idempotency-Key is already in progress" };
const MISMATCH = { success: false, error: "This Idempotency-Key was already used with a different request" };

/**
 * A small app around the middleware: real authentication and store from the container, the
 * fixture's manual clock, and test routes that count their runs. `hold()` makes the next run of
 * POST /things wait until released.
 */
async function harness(t: ExecutionContext, dialect: Dialect) {
  const api = await apiFixture(t, dialect);
  const { container } = api.runtime;
  const acme = await createCompanyFixture(container);
  let runs = 0;
  let held: { entered: () => void; released: Promise<void> } | undefined;

  const router = express.Router();
  router.use(authenticate(container.get(AuthenticateApiKey)));
  router.use(express.json());
  const guard = idempotency(container.get<IdempotencyStore>(IdempotencyStore), api.clock);
  router.post("/things", guard, async (req, res) => {
    const run = ++runs;
    const hold = held;
    held = undefined;
    if (hold) {
      hold.entered();
      await hold.released;
    }
    if (req.body?.invalid) res.status(422).json({ success: false, error: "invalid", run });
    else res.status(201).json({ success: true, run, received: req.body });
  });
  router.post("/crash", guard, async () => {
    runs += 1;
    throw new Error("boom");
  });
  router.post("/no-body", guard, (_req, res) => {
    runs += 1;
    res.sendStatus(204);
  });
  const app = express();
  app.use("/api/v1", router);
  app.use(notFoundHandler);
  app.use(errorHandler(createLogger("silent")));
  const server = app.listen(0, "127.0.0.1");
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1`;

  async function post(path: string, options: { idempotencyKey?: string; body?: unknown; key?: string } = {}): Promise<JsonResponse> {
    const headers: Record<string, string> = { "content-type": "application/json", authorization: `Bearer ${options.key ?? acme.ownerKey}` };
    if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey;
    const response = await fetch(`${url}${path}`, { method: "POST", headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  }

  function hold() {
    let release!: () => void;
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    held = { entered, released: new Promise<void>((resolve) => (release = resolve)) };
    return { started, release };
  }

  return { api, acme, post, hold, runs: () => runs };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: Idempotency-Key ${title}`;

  test(name("runs the first call and replays its status and body to a retry of the same request"), async (t) => {
    const { post, runs } = await harness(t, dialect);
    const first = await post("/things", { idempotencyKey: "order-1", body: { to: "a@example.com", data: { x: 1, y: [1, 2] } } });
    t.is(first.status, 201);
    t.deepEqual(first.body, { success: true, run: 1, received: { to: "a@example.com", data: { x: 1, y: [1, 2] } } });
    t.is(first.headers.get("idempotent-replayed"), null);

    // The same body with its keys in another order is the same request.
    const retry = await post("/things", { idempotencyKey: "order-1", body: { data: { y: [1, 2], x: 1 }, to: "a@example.com" } });
    t.is(retry.status, 201);
    t.deepEqual(retry.body, first.body);
    t.is(retry.headers.get("idempotent-replayed"), "true");
    t.is(runs(), 1, "the handler ran once");

    // A 4xx is an answer too: stored and replayed.
    const invalid = await post("/things", { idempotencyKey: "order-2", body: { invalid: true } });
    t.is(invalid.status, 422);
    const invalidAgain = await post("/things", { idempotencyKey: "order-2", body: { invalid: true } });
    t.is(invalidAgain.status, 422);
    t.deepEqual(invalidAgain.body, invalid.body);
    t.is(runs(), 2);

    // Without the header nothing is stored or replayed.
    t.is((await post("/things", { body: { to: "a@example.com" } })).body.run, 3);
    const plain = await post("/things", { body: { to: "a@example.com" } });
    t.is(plain.body.run, 4);
    t.is(plain.headers.get("idempotent-replayed"), null);
  });

  test(name("used again with a different body or route is a 409"), async (t) => {
    const { post, runs } = await harness(t, dialect);
    t.is((await post("/things", { idempotencyKey: "k", body: { amount: 1 } })).status, 201);
    const otherBody = await post("/things", { idempotencyKey: "k", body: { amount: 2 } });
    t.is(otherBody.status, 409);
    t.deepEqual(otherBody.body, MISMATCH);
    const otherRoute = await post("/no-body", { idempotencyKey: "k", body: { amount: 1 } });
    t.is(otherRoute.status, 409);
    t.deepEqual(otherRoute.body, MISMATCH);
    t.is(runs(), 1);
  });

  test(name("sent again while the first request is still running is a 409"), async (t) => {
    const { post, hold, runs } = await harness(t, dialect);
    const slow = hold();
    const first = post("/things", { idempotencyKey: "slow", body: { n: 1 } });
    await slow.started;
    const duplicate = await post("/things", { idempotencyKey: "slow", body: { n: 1 } });
    t.is(duplicate.status, 409);
    t.deepEqual(duplicate.body, IN_PROGRESS);
    slow.release();
    t.is((await first).status, 201);
    const retry = await post("/things", { idempotencyKey: "slow", body: { n: 1 } });
    t.is(retry.headers.get("idempotent-replayed"), "true");
    t.is(retry.body.run, 1);
    t.is(runs(), 1);
  });

  test(name("belongs to one company: another company's same key is independent"), async (t) => {
    const { api, post, runs } = await harness(t, dialect);
    const globex = await createCompanyFixture(api.runtime.container);
    const mine = await post("/things", { idempotencyKey: "shared", body: { n: 1 } });
    const theirs = await post("/things", { idempotencyKey: "shared", body: { n: 2 }, key: globex.ownerKey });
    t.is(theirs.status, 201);
    t.is(theirs.headers.get("idempotent-replayed"), null);
    t.is(runs(), 2);
    t.deepEqual((await post("/things", { idempotencyKey: "shared", body: { n: 1 } })).body, mine.body);
    t.deepEqual((await post("/things", { idempotencyKey: "shared", body: { n: 2 }, key: globex.ownerKey })).body, theirs.body);
    t.is(runs(), 2);
  });

  test(name("expires after 24 hours, and the request runs again"), async (t) => {
    const { api, post, runs } = await harness(t, dialect);
    await post("/things", { idempotencyKey: "daily", body: { n: 1 } });
    api.clock.advance(DAY_MS - 1);
    t.is((await post("/things", { idempotencyKey: "daily", body: { n: 1 } })).headers.get("idempotent-replayed"), "true");
    api.clock.advance(1);
    const again = await post("/things", { idempotencyKey: "daily", body: { n: 2 } });
    t.is(again.status, 201);
    t.is(again.body.run, 2, "a new body is fine once the key expired");
    t.is((await post("/things", { idempotencyKey: "daily", body: { n: 2 } })).body.run, 2, "and the new answer is replayed");
    t.is(runs(), 2);
  });

  test(name("does not keep a 500 or a response without a body: a retry runs again"), async (t) => {
    const { post, runs } = await harness(t, dialect);
    const crashed = await post("/crash", { idempotencyKey: "boom", body: {} });
    t.is(crashed.status, 500);
    t.deepEqual(crashed.body, { success: false, error: "Internal server error" });
    t.is((await post("/crash", { idempotencyKey: "boom", body: {} })).status, 500);
    t.is(runs(), 2);

    t.is((await post("/no-body", { idempotencyKey: "quiet" })).status, 204);
    t.is((await post("/no-body", { idempotencyKey: "quiet" })).status, 204);
    t.is(runs(), 4);
  });

  test(name("must be 1 to 255 characters"), async (t) => {
    const { post, runs } = await harness(t, dialect);
    for (const idempotencyKey of ["", "k".repeat(256)]) {
      const response = await post("/things", { idempotencyKey, body: {} });
      t.is(response.status, 400);
      t.deepEqual(response.body, { success: false, error: "Idempotency-Key must be 1 to 255 characters" });
    }
    t.is(runs(), 0);
    t.is((await post("/things", { idempotencyKey: "k".repeat(255), body: {} })).status, 201);
  });
}
