import test from "ava";
import {
  afterBatch,
  approve,
  cannotStart,
  MAX_RUN_ERRORS,
  newRun,
  NO_PLAN,
  RUN_STATUSES,
  SELECT_A_RESOURCE,
  transition,
  type ApprovedPlan,
  type Discovery,
  type MigrationRun,
  type RunEvent,
  type RunStatus,
} from "../../../core/migrations/model.js";
import type { DomainError } from "../../../core/shared/errors.js";

const CREATED = new Date("2026-11-22T10:00:00.000Z");
const NOW = new Date("2026-11-22T10:05:00.000Z");

const DISCOVERY: Discovery = {
  provider: "mailchimp",
  resources: [
    { id: "audience:a1", type: "audience", count: 3, name: "Newsletter" },
    { id: "campaigns", type: "campaign", count: 2, name: "Campaigns" },
    { id: "templates", type: "template", count: 1, name: "Saved templates" },
  ],
};
const PLANNED: ApprovedPlan = { resourceIds: ["campaigns"], resourceOptions: {}, approvedAt: CREATED };

const run = (status: RunStatus, plan: ApprovedPlan = NO_PLAN): MigrationRun => ({ ...newRun("mig_1", "cmp_1", DISCOVERY, plan, CREATED), status });

/** The error of a refused transition (fails the test when it was accepted). */
function refusal(result: ReturnType<typeof transition>): DomainError {
  if (result._tag === "Right") throw new Error(`expected a refusal, got ${result.right.status}`);
  return result.left;
}

/**
 * The spec's table (States and transitions, Migration run), row by row. `plan` is what the run
 * already approved; `event` the start request; `expect` the next status or the 400.
 */
const START_TABLE: ReadonlyArray<{
  readonly row: string;
  readonly from: RunStatus;
  readonly plan: ApprovedPlan;
  readonly event: RunEvent & { type: "start" };
  readonly expect: { readonly status: RunStatus; readonly planIds: readonly string[]; readonly same?: boolean } | { readonly error: "select" | "state" };
}> = [
  {
    row: "awaiting_approval + resourceIds -> queued, selection approved",
    from: "awaiting_approval",
    plan: NO_PLAN,
    event: { type: "start", resourceIds: ["audience:a1"] },
    expect: { status: "queued", planIds: ["audience:a1"] },
  },
  {
    row: "awaiting_approval + resource already in the approved plan -> queued",
    from: "awaiting_approval",
    plan: PLANNED,
    event: { type: "start" },
    expect: { status: "queued", planIds: ["campaigns"] },
  },
  {
    row: "awaiting_approval + resourceIds with a plan: the given selection is approved first",
    from: "awaiting_approval",
    plan: PLANNED,
    event: { type: "start", resourceIds: ["templates", "audience:a1"] },
    expect: { status: "queued", planIds: ["templates", "audience:a1"] },
  },
  {
    row: "awaiting_approval + empty resourceIds with a plan -> queued on the plan",
    from: "awaiting_approval",
    plan: PLANNED,
    event: { type: "start", resourceIds: [] },
    expect: { status: "queued", planIds: ["campaigns"] },
  },
  ...(["queued", "running"] as const).flatMap((from) => [
    {
      row: `${from} + start -> unchanged`,
      from,
      plan: PLANNED,
      event: { type: "start" } as const,
      expect: { status: from, planIds: ["campaigns"], same: true },
    },
    {
      row: `${from} + start with other resourceIds -> unchanged, plan unchanged`,
      from,
      plan: PLANNED,
      event: { type: "start", resourceIds: ["templates"] } as const,
      expect: { status: from, planIds: ["campaigns"], same: true },
    },
  ]),
  ...(["completed", "failed", "canceled", "cancel_requested"] as const).flatMap((from) => [
    { row: `${from} + start -> 400`, from, plan: PLANNED, event: { type: "start" } as const, expect: { error: "state" } as const },
    {
      row: `${from} + start with resourceIds -> 400`,
      from,
      plan: PLANNED,
      event: { type: "start", resourceIds: ["templates"] } as const,
      expect: { error: "state" } as const,
    },
  ]),
  ...RUN_STATUSES.flatMap((from) => [
    { row: `${from} + start, no resource selected -> 400`, from, plan: NO_PLAN, event: { type: "start" } as const, expect: { error: "select" } as const },
    {
      row: `${from} + start, empty resourceIds and no plan -> 400`,
      from,
      plan: NO_PLAN,
      event: { type: "start", resourceIds: [] } as const,
      expect: { error: "select" } as const,
    },
  ]),
];

for (const { row, from, plan, event, expect } of START_TABLE) {
  test(`start: ${row}`, (t) => {
    const before = run(from, plan);
    const result = transition(before, event, NOW);
    if ("error" in expect) {
      const error = refusal(result);
      t.is(error._tag, expect.error === "select" ? "BadRequest" : "InvalidState");
      t.is(error.message, expect.error === "select" ? SELECT_A_RESOURCE : cannotStart(from));
      return;
    }
    if (result._tag === "Left") return t.fail(result.left.message);
    t.is(result.right.status, expect.status);
    t.deepEqual(result.right.approvedPlan.resourceIds, expect.planIds);
    if (expect.same) t.is(result.right, before, "the run is returned as it is");
    else t.truthy(result.right.approvedPlan.approvedAt);
  });
}

test("start: resourceOptions are honoured only with a nonempty resourceIds", (t) => {
  const withPlan = run("awaiting_approval", { ...PLANNED, resourceOptions: { campaigns: { createdSince: "2026-01-01T00:00:00.000Z" } } });
  const ignored = transition(withPlan, { type: "start", resourceOptions: { campaigns: { createdSince: "2020-01-01T00:00:00.000Z" } } }, NOW);
  if (ignored._tag === "Left") return t.fail(ignored.left.message);
  t.deepEqual(ignored.right.approvedPlan.resourceOptions, { campaigns: { createdSince: "2026-01-01T00:00:00.000Z" } });

  const honoured = transition(
    run("awaiting_approval"),
    {
      type: "start",
      resourceIds: ["audience:a1"],
      resourceOptions: { "audience:a1": { statuses: ["active"] }, campaigns: { createdSince: "2020-01-01T00:00:00.000Z" } },
    },
    NOW,
  );
  if (honoured._tag === "Left") return t.fail(honoured.left.message);
  // Options of a discovered resource left out of the selection are dropped.
  t.deepEqual(honoured.right.approvedPlan, { resourceIds: ["audience:a1"], resourceOptions: { "audience:a1": { statuses: ["active"] } }, approvedAt: NOW });
});

test("start: unknown resources and options that do not suit the resource are 400 and change nothing", (t) => {
  const before = run("awaiting_approval");
  t.regex(
    refusal(transition(before, { type: "start", resourceIds: ["audience:a1", "audience:zz"] }, NOW)).message,
    /Unknown resource in resourceIds: audience:zz/,
  );
  t.regex(
    refusal(transition(before, { type: "start", resourceIds: ["audience:a1"], resourceOptions: { nope: {} } }, NOW)).message,
    /Unknown resource in resourceOptions: nope/,
  );
  t.regex(
    refusal(transition(before, { type: "start", resourceIds: ["campaigns"], resourceOptions: { campaigns: { statuses: ["active"] } } }, NOW)).message,
    /resourceOptions\.campaigns: statuses does not apply to a campaign resource/,
  );
  t.regex(
    refusal(
      transition(
        before,
        { type: "start", resourceIds: ["audience:a1"], resourceOptions: { "audience:a1": { createdSince: "2020-01-01T00:00:00.000Z" } } },
        NOW,
      ),
    ).message,
    /createdSince does not apply to a audience resource/,
  );
  t.is(before.status, "awaiting_approval");
});

test("approve: repeated IDs are approved once, in the order given", (t) => {
  const plan = approve(DISCOVERY, ["templates", "campaigns", "templates"], {}, NOW);
  if (plan._tag === "Left") return t.fail(plan.left.message);
  t.deepEqual(plan.right.resourceIds, ["templates", "campaigns"]);
});

/** Cancel (decisions.md): cancel_requested while running, canceled otherwise; ended runs say so. */
const CANCEL_TABLE: ReadonlyArray<{ readonly from: RunStatus; readonly next: RunStatus | "400"; readonly same?: boolean }> = [
  { from: "awaiting_approval", next: "canceled" },
  { from: "queued", next: "canceled" },
  { from: "running", next: "cancel_requested" },
  { from: "cancel_requested", next: "cancel_requested", same: true },
  { from: "canceled", next: "canceled", same: true },
  { from: "completed", next: "400" },
  { from: "failed", next: "400" },
];

for (const { from, next, same } of CANCEL_TABLE) {
  test(`cancel: ${from} -> ${next}`, (t) => {
    const before = run(from, PLANNED);
    const result = transition(before, { type: "cancel" }, NOW);
    if (next === "400") {
      const error = refusal(result);
      t.is(error._tag, "InvalidState");
      t.is(error.message, `Migration run is already ${from} and cannot be canceled`);
      return;
    }
    if (result._tag === "Left") return t.fail(result.left.message);
    t.is(result.right.status, next);
    if (same) t.is(result.right, before);
    t.is(result.right.completedAt, next === "canceled" && !same ? NOW : before.completedAt);
  });
}

/** The job's moves: each from the states listed only. */
const JOB_TABLE: ReadonlyArray<{ readonly event: RunEvent; readonly allowed: Partial<Record<RunStatus, RunStatus>> }> = [
  { event: { type: "begin" }, allowed: { queued: "running" } },
  { event: { type: "complete" }, allowed: { running: "completed" } },
  { event: { type: "stop" }, allowed: { cancel_requested: "canceled" } },
  { event: { type: "fail", error: "Mailchimp refused the API key" }, allowed: { queued: "failed", running: "failed", cancel_requested: "failed" } },
];

for (const { event, allowed } of JOB_TABLE) {
  for (const from of RUN_STATUSES) {
    const next = allowed[from];
    test(`job: ${event.type} from ${from} -> ${next ?? "refused"}`, (t) => {
      const result = transition(run(from, PLANNED), event, NOW);
      if (!next) {
        t.is(refusal(result)._tag, "InvalidState");
        return;
      }
      if (result._tag === "Left") return t.fail(result.left.message);
      t.is(result.right.status, next);
      if (event.type === "begin") {
        t.is(result.right.startedAt, NOW);
        t.deepEqual(
          result.right.progress.resources.map((r) => [r.id, r.total, r.done]),
          [["campaigns", 2, false]],
        );
      } else {
        t.is(result.right.completedAt, NOW);
      }
      if (event.type === "fail") t.deepEqual(result.right.errors, [{ resourceId: null, message: "Mailchimp refused the API key", at: NOW }]);
    });
  }
}

test("afterBatch: progress replaced, report summed over resources, errors capped", (t) => {
  const started = transition(
    run("queued", { resourceIds: ["audience:a1", "campaigns", "templates"], resourceOptions: {}, approvedAt: CREATED }),
    { type: "begin" },
    CREATED,
  );
  if (started._tag === "Left") return t.fail(started.left.message);
  const [audience, campaigns, templates] = started.right.progress.resources;
  let current = afterBatch(started.right, { ...audience!, processed: 3, queued: 2, skipped: 1, done: true, importId: "imp_1" }, [], NOW);
  current = afterBatch(current, { ...campaigns!, processed: 2, created: 2, done: true }, [], NOW);
  const errors = Array.from({ length: MAX_RUN_ERRORS + 5 }, (_, i) => ({ resourceId: "templates", message: `problem ${i}` }));
  current = afterBatch(current, { ...templates!, processed: 1, created: 1, done: true }, errors, NOW);
  t.is(current.progress.batches, 3);
  t.deepEqual(current.report, {
    subscribersQueued: 2,
    draftCampaignsCreated: 2,
    draftSequencesCreated: 0,
    draftTransactionalEmailsCreated: 0,
    templatesCreated: 1,
  });
  t.is(current.errors.length, MAX_RUN_ERRORS);
  t.is(current.errors[0]?.message, "problem 0");
});
