import test, { type ExecutionContext } from "ava";
import { SetUpOperatorSender } from "../../../core/company/set-up-operator-sender.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { createCompanyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { RequestOptions } from "../../helpers/http-client.js";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  call(method: string, path: string, options?: RequestOptions): ReturnType<ApiFixture["call"]>;
}

async function session(t: ExecutionContext, dialect: Dialect, sender = true): Promise<Session> {
  const api = await apiFixture(t, dialect);
  const company = await createCompanyFixture(api.runtime.container);
  if (sender) {
    const made = await api.runtime.container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, "hello@acme.example");
    if (made._tag === "Left") throw new Error(made.left.message);
  }
  return { api, company, call: (method, path, options = {}) => api.call(method, path, { key: company.ownerKey, ...options }) };
}

const EMAIL_SEQUENCE = { name: "Welcome", trigger: "event_received", eventName: "signed_up", steps: [{ subject: "Hi", html: "<p>Hi</p>" }] };

async function create(s: Session, body: Record<string, unknown> = EMAIL_SEQUENCE): Promise<string> {
  const created = await s.call("POST", "/api/v1/sequences", { body });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  return created.body.sequence.id;
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: sequence status ${title}`;

  test(name("enable, pause and resume enrollments, disable: the fields the official client reads"), async (t) => {
    const s = await session(t, dialect);
    const id = await create(s);
    // Action POSTs arrive with Content-Type JSON and no body at all.
    const enabled = await s.call("POST", `/api/v1/sequences/${id}/enable`);
    t.is(enabled.status, 200, JSON.stringify(enabled.body));
    t.deepEqual(enabled.body, {
      success: true,
      sequenceId: id,
      status: "active",
      enrollmentPaused: false,
      effectiveStatus: "live",
      acceptsNewEnrollments: true,
      processesExistingEnrollments: true,
      effectiveStatusSummary: "Live: enrolls new contacts and moves current ones along.",
    });
    t.like((await s.call("POST", `/api/v1/sequences/${id}/enable`)).body, { status: "active" }, "enabling twice changes nothing");

    const paused = await s.call("POST", `/api/v1/sequences/${id}/pause-enrollments`);
    t.is(paused.status, 200);
    t.false("status" in paused.body);
    t.like(paused.body, {
      sequenceId: id,
      enrollmentPaused: true,
      effectiveStatus: "enrollment_paused",
      acceptsNewEnrollments: false,
      processesExistingEnrollments: true,
    });
    const resumed = await s.call("POST", `/api/v1/sequences/${id}/resume-enrollments`);
    t.like(resumed.body, { enrollmentPaused: false, effectiveStatus: "live", acceptsNewEnrollments: true });

    const disabled = await s.call("POST", `/api/v1/sequences/${id}/disable`);
    t.is(disabled.status, 200);
    t.like(disabled.body, {
      sequenceId: id,
      status: "paused",
      effectiveStatus: "paused",
      acceptsNewEnrollments: false,
      processesExistingEnrollments: false,
    });
    t.regex(disabled.body.effectiveStatusSummary, /wait where they are/);
    t.like((await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence, { status: "paused", effectiveStatus: "paused" });
    t.like(
      (await s.call("POST", `/api/v1/sequences/${id}/enable`)).body,
      { status: "active", effectiveStatus: "live" },
      "a disabled sequence can be enabled again",
    );
  });

  test(name("enabling says what this server cannot run, and changes nothing"), async (t) => {
    const s = await session(t, dialect, false);
    const noSender = await create(s);
    const refused = await s.call("POST", `/api/v1/sequences/${noSender}/enable`);
    t.is(refused.status, 400);
    t.regex(refused.body.error, /cannot be enabled: its emails have no sender: No verified sender/);
    t.like((await s.call("GET", `/api/v1/sequences/${noSender}`)).body.sequence, { status: "draft" });

    const clicked = await create(s, {
      name: "Clicked",
      trigger: "event_received",
      eventName: "paid",
      steps: [{ nodeType: "logic_condition", config: { conditionType: "sms_subscribed" } }],
    });
    const byNode = await s.call("POST", `/api/v1/sequences/${clicked}/enable`);
    t.is(byNode.status, 400);
    t.regex(byNode.body.error, /condition type 'sms_subscribed' is not evaluated by this server \(supported: .*in_segment, event_received, link_clicked/);

    t.is((await s.call("POST", "/api/v1/sequences/seq_missing/enable")).status, 404);
    await s.call("POST", `/api/v1/sequences/${clicked}/archive`);
    t.is((await s.call("POST", `/api/v1/sequences/${clicked}/enable`)).status, 400);
    t.is((await s.call("POST", `/api/v1/sequences/${clicked}/pause-enrollments`)).status, 400);
  });

  test(name("a live sequence's trigger and structure change only when confirmed"), async (t) => {
    const s = await session(t, dialect);
    const id = await create(s);
    t.is((await s.call("POST", `/api/v1/sequences/${id}/enable`)).status, 200);
    const before = (await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence;

    const trigger = await s.call("PUT", `/api/v1/sequences/${id}`, { body: { eventName: "registered" } });
    t.is(trigger.status, 400);
    t.regex(trigger.body.error, /confirmLiveChange/);
    const insert = { insertSteps: { steps: [{ subject: "More", html: "<p>More</p>" }] } };
    const structural = await s.call("PUT", `/api/v1/sequences/${id}`, { body: insert });
    t.is(structural.status, 400);
    t.regex(structural.body.error, /confirmStructuralChange/);
    t.deepEqual((await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence, before, "nothing changed");

    t.is((await s.call("PUT", `/api/v1/sequences/${id}`, { body: { name: "Renamed" } })).status, 200, "settings need no confirmation");
    const confirmed = await s.call("PUT", `/api/v1/sequences/${id}`, { body: { eventName: "registered", confirmLiveChange: true } });
    t.is(confirmed.status, 200);
    t.like(confirmed.body.sequence.triggerConfig, { eventName: "registered" });
    const inserted = await s.call("PUT", `/api/v1/sequences/${id}`, { body: { ...insert, confirmStructuralChange: true } });
    t.is(inserted.status, 200);
    t.is(inserted.body.sequence.emailCount, 2);
    const unrunnable = await s.call("PUT", `/api/v1/sequences/${id}`, {
      body: { insertSteps: { steps: [{ nodeType: "logic_condition", config: { conditionType: "sms_subscribed" } }] }, confirmStructuralChange: true },
    });
    t.is(unrunnable.status, 400);
    t.regex(unrunnable.body.error, /live and could not run after this change: .*sms_subscribed/);
  });
}
