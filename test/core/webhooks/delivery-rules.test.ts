import test from "ava";
import { circuitRestMs, healthAfter, isCircuitOpen, nextAttemptAfter, webhookEventBody } from "../../../core/webhooks/model.js";
import { webhookUrlProblem } from "../../../core/webhooks/webhook-url.js";

const T0 = new Date("2026-11-22T10:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

test("retries come 30 s after the first failure, doubling, at most a day apart, and stop 7 days after the event", (t) => {
  const delivery = { createdAt: T0 };
  t.deepEqual(nextAttemptAfter(1, delivery, T0), at(30_000));
  t.deepEqual(nextAttemptAfter(2, delivery, at(30_000)), at(90_000));
  t.deepEqual(nextAttemptAfter(3, delivery, T0), at(120_000));
  t.deepEqual(nextAttemptAfter(20, delivery, T0), at(DAY), "capped at a day");
  t.deepEqual(nextAttemptAfter(20, delivery, at(6 * DAY)), at(7 * DAY), "the last one may land on the 7th day");
  t.is(nextAttemptAfter(20, delivery, at(6 * DAY + 1)), null, "none after the window");

  // Followed from the first failure, the schedule gives up within the window, after days of trying.
  let now = T0;
  let attempts = 1;
  for (let next = nextAttemptAfter(attempts, delivery, now); next; next = nextAttemptAfter(attempts, delivery, now)) {
    now = next;
    attempts += 1;
  }
  t.is(attempts, 18);
  t.true(now.getTime() - T0.getTime() > 6 * DAY && now.getTime() - T0.getTime() <= 7 * DAY);
});

test("five failures in a row open the circuit, the rest doubles up to an hour, and a success closes it", (t) => {
  let health = { consecutiveFailures: 0, circuitOpenedAt: null as Date | null, circuitOpenUntil: null as Date | null };
  for (let i = 1; i <= 4; i += 1) {
    health = healthAfter(health, { ok: false }, T0);
    t.is(health.consecutiveFailures, i);
    t.is(health.circuitOpenUntil, null);
  }
  health = healthAfter(health, { ok: false }, T0);
  t.deepEqual(health, { consecutiveFailures: 5, circuitOpenedAt: T0, circuitOpenUntil: at(60_000) });
  t.true(isCircuitOpen(health, at(59_999)));
  t.false(isCircuitOpen(health, at(60_000)));
  health = healthAfter(health, { ok: false }, at(60_000));
  t.deepEqual(health, { consecutiveFailures: 6, circuitOpenedAt: T0, circuitOpenUntil: at(180_000) }, "opened when it first opened, resting 2 min");
  t.is(circuitRestMs(50), HOUR);
  t.deepEqual(healthAfter(health, { ok: true }, at(HOUR)), { consecutiveFailures: 0, circuitOpenedAt: null, circuitOpenUntil: null });
});

test("webhook URLs are https on public hosts, unless private destinations are allowed", (t) => {
  t.is(webhookUrlProblem("https://hooks.example.com/in?x=1", false), null);
  for (const url of [
    "http://hooks.example.com",
    "https://127.0.0.1",
    "https://[::1]/",
    "https://192.168.1.4",
    "https://169.254.169.254/latest",
    "https://localhost:3000",
    "https://a.localhost",
  ]) {
    t.truthy(webhookUrlProblem(url, false), url);
  }
  t.is(webhookUrlProblem("http://127.0.0.1:4000/hooks", true), null);
  t.regex(webhookUrlProblem("https://u:p@hooks.example.com", true)!, /credentials/);
  t.regex(webhookUrlProblem("https://hooks.example.com/#frag", false)!, /fragment/);
  t.regex(webhookUrlProblem("mailto:x@example.com", true)!, /https/);
});

test("the payload is snake_case with object event and the metric named after the type", (t) => {
  const body = JSON.parse(webhookEventBody({ id: "evt_1", type: "email.delivered", occurredAt: T0, data: { email_send_id: "send_1" } }));
  t.deepEqual(body, {
    id: "evt_1",
    type: "email.delivered",
    object: "event",
    metric: "delivered",
    created_at: T0.toISOString(),
    data: { email_send_id: "send_1" },
  });
});
