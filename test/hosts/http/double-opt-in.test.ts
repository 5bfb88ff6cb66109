import test, { type ExecutionContext } from "ava";
import type { MemoryMailTransport } from "../../../adapters/memory/memory-mail-transport.js";
import { SetUpOperatorSender } from "../../../core/company/set-up-operator-sender.js";
import { DeliverEmail } from "../../../core/delivery/deliver-email.js";
import { MailTransport } from "../../../core/delivery/mail-transport.js";
import { ConfirmationTokens } from "../../../core/opt-in/confirmation-tokens.js";
import { RECENTLY_SENT, suppressedAddress } from "../../../core/opt-in/send-confirmation-email.js";
import { SuppressionRepository } from "../../../core/suppressions/ports.js";
import { TokenSigner } from "../../../core/ports/token-signer.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { createCompanyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { failInsertsInto } from "../../helpers/injected-failure.js";
import type { RequestOptions } from "../../helpers/http-client.js";
import { BASE_URL } from "../../helpers/runtime.js";

const CONFIRM_LINK = new RegExp(`${BASE_URL}/c/([A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)`);
const MINUTE = 60_000;

interface Session {
  readonly api: ApiFixture;
  readonly a: CompanyFixture;
  readonly b: CompanyFixture;
  readonly transport: MemoryMailTransport;
  call(method: string, path: string, options?: RequestOptions, company?: CompanyFixture): ReturnType<ApiFixture["call"]>;
  /** Delivers every pending send, as the worker would; returns their statuses by recipient. */
  deliver(): Promise<Array<[string, string | null]>>;
  /** A public page of the app. */
  page(method: "GET" | "POST", token: string): Promise<{ status: number; text: string }>;
  confirmedAt(subscriberId: string): Promise<unknown>;
  confirmedEvents(subscriberId: string): Promise<number>;
}

async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const api = await apiFixture(t, dialect);
  const container = api.runtime.container;
  const a = await createCompanyFixture(container, { name: "Acme & Co" });
  const b = await createCompanyFixture(container, { name: "Beta" });
  for (const [company, sender] of [
    [a, "hello@acme.example"],
    [b, "hello@beta.example"],
  ] as const) {
    const made = await container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, sender);
    if (made._tag === "Left") throw new Error(made.left.message);
  }
  const knex = api.runtime.knex;
  return {
    api,
    a,
    b,
    transport: container.get<MemoryMailTransport>(MailTransport),
    call: (method, path, options = {}, company = a) => api.call(method, path, { key: company.ownerKey, ...options }),
    async deliver() {
      const pending: Array<{ id: string; company_id: string; recipient_email: string }> = await knex("email_sends").where({ status: "pending" }).orderBy("id");
      const deliver = container.get(DeliverEmail);
      return Promise.all(pending.map(async (send) => [send.recipient_email, await deliver.execute(send.company_id, send.id)] as [string, string | null]));
    },
    async page(method, token) {
      const response = await fetch(`${api.server.url}/c/${token}`, { method });
      return { status: response.status, text: await response.text() };
    },
    confirmedAt: async (subscriberId) => (await knex("opt_ins").where({ subscriber_id: subscriberId }).first())?.confirmed_at ?? null,
    confirmedEvents: async (subscriberId) =>
      Number((await knex("custom_events").where({ subscriber_id: subscriberId, name: "subscriber.confirmed" }).count({ n: "*" }).first())!.n),
  };
}

const tokenIn = (html: string): string => CONFIRM_LINK.exec(html)![1]!;

const marketing = (s: Session, to: string, emailType: "marketing" | "transactional" = "marketing") =>
  s.call("POST", "/api/v1/transactional/send", { body: { to, subject: "News", body: "<p>News</p>", emailType } });

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: double opt-in ${title}`;

  test(name("a new contact gets exactly one confirmation email, no marketing until it follows the link, which confirms it once"), async (t) => {
    const s = await session(t, dialect);
    t.is((await s.call("PATCH", "/api/v1/tracking-settings", { body: { doubleOptInEnabled: true } })).status, 200);

    const created = await s.call("POST", "/api/v1/subscribers", { body: { email: "Ann@Example.com", firstName: "Ann" } });
    t.is(created.status, 200);
    t.deepEqual(created.body.optIn, { required: true, emailQueued: true });
    t.false("warnings" in created.body);
    t.is(created.body.subscriber.status, "active", "status keeps the spec's values");
    const ann = created.body.subscriber;

    t.deepEqual(await s.deliver(), [["ann@example.com", "sent"]]);
    t.is(s.transport.messages.length, 1);
    const [email] = s.transport.messages;
    t.is(email!.message.to, "ann@example.com");
    t.is(email!.message.subject, "Confirm your subscription to Acme & Co");
    t.is(email!.message.from.email, "hello@acme.example");
    const html = email!.message.html!;
    t.regex(html, /Please confirm that you want to receive email from Acme &amp; Co at ann@example\.com/);
    t.notRegex(html, new RegExp(`${BASE_URL}/t/[oc]/`), "the confirmation email is neither pixel-tracked nor link-rewritten");
    const token = tokenIn(html);

    // Marketing waits for the confirmation; transactional mail does not.
    t.is((await marketing(s, "ann@example.com")).status, 200);
    t.is((await marketing(s, "ann@example.com", "transactional")).status, 200);
    const statuses = await s.deliver();
    t.deepEqual(statuses.map(([, status]) => status).sort(), ["sent", "suppressed"]);
    t.is((await s.api.runtime.knex("email_sends").where({ status: "suppressed" }).first()).suppression_reason, "unconfirmed");

    // Signing up again soon after queues nothing more.
    const again = await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com" } });
    t.deepEqual(again.body.optIn, { required: true, emailQueued: false });
    t.deepEqual(again.body.warnings, [RECENTLY_SENT]);
    t.deepEqual(await s.deliver(), []);

    // The link shows a page and changes nothing; its button confirms, once.
    const shown = await s.page("GET", token);
    t.is(shown.status, 200);
    t.regex(shown.text, /<form method="post">/);
    t.regex(shown.text, /ann@example\.com/);
    t.is(await s.confirmedAt(ann.id), null);
    const confirmed = await s.page("POST", token);
    t.is(confirmed.status, 200);
    t.regex(confirmed.text, /You are subscribed/);
    t.not(await s.confirmedAt(ann.id), null);
    t.is((await s.page("POST", token)).status, 200, "confirming twice is fine");
    t.regex((await s.page("GET", token)).text, /You are subscribed/);
    t.is(await s.confirmedEvents(ann.id), 1, "one subscriber.confirmed event");
    const event = await s.api.runtime.knex("custom_events").where({ subscriber_id: ann.id, name: "subscriber.confirmed" }).first();
    t.is(new Date(event.occurred_at).toISOString(), new Date((await s.confirmedAt(ann.id)) as string).toISOString(), "it happened when the contact confirmed");
    // An event lost after the confirmation (a crash between the two writes) is recorded on the next visit, at the confirmation's time.
    await s.api.runtime.knex("custom_events").where({ id: event.id }).delete();
    s.api.clock.advance(MINUTE);
    t.is((await s.page("POST", token)).status, 200);
    t.is(await s.confirmedEvents(ann.id), 1);
    const restored = await s.api.runtime.knex("custom_events").where({ subscriber_id: ann.id, name: "subscriber.confirmed" }).first();
    t.is(new Date(restored.occurred_at).toISOString(), new Date(event.occurred_at).toISOString());
    const detail = await s.call("GET", "/api/v1/subscribers/ann%40example.com");
    t.true(
      detail.body.subscriber.activity.some(
        (event: { eventType: string; eventName: string }) => event.eventType === "custom" && event.eventName === "subscriber.confirmed",
      ),
    );

    // Confirmed: marketing goes, and nobody is asked again.
    t.is((await marketing(s, "ann@example.com")).status, 200);
    t.deepEqual(await s.deliver(), [["ann@example.com", "sent"]]);
    s.api.clock.advance(11 * MINUTE);
    const later = await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com" } });
    t.deepEqual(later.body.optIn, { required: false, emailQueued: false });
    t.is(s.transport.messages.filter((message) => message.message.subject.startsWith("Confirm")).length, 1);
  });

  test(name("resends to an unconfirmed contact after 10 minutes; `confirmed` never asks, `double_opt_in` always does"), async (t) => {
    const s = await session(t, dialect);
    const post = (body: Record<string, unknown>) => s.call("POST", "/api/v1/subscribers", { body });

    // The company setting is off: only an explicit double_opt_in asks.
    t.false("optIn" in (await post({ email: "plain@example.com" })).body);
    t.false("optIn" in (await post({ email: "default@example.com", optInMode: "default" })).body);
    t.deepEqual((await post({ email: "asked@example.com", optInMode: "double_opt_in" })).body.optIn, { required: true, emailQueued: true });
    t.deepEqual((await post({ email: "asked@example.com", optInMode: "double_opt_in" })).body.optIn, { required: true, emailQueued: false });
    s.api.clock.advance(10 * MINUTE);
    t.deepEqual((await post({ email: "asked@example.com", optInMode: "double_opt_in" })).body.optIn, { required: true, emailQueued: true });

    // The setting is on: `confirmed` still skips it, and an unsubscribed contact is never asked.
    t.is((await s.call("PATCH", "/api/v1/tracking-settings", { body: { doubleOptInEnabled: true } })).status, 200);
    const confirmed = await post({ email: "imported@example.com", optInMode: "confirmed" });
    t.false("optIn" in confirmed.body);
    t.is(await s.api.runtime.knex("opt_ins").where({ subscriber_id: confirmed.body.subscriber.id }).first(), undefined);
    t.deepEqual((await post({ email: "gone@example.com", status: "unsubscribed" })).body.optIn, { required: false, emailQueued: false });

    // List adds ask the contacts they create.
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;
    const added = await s.call("POST", `/api/v1/lists/${list.id}/subscribers`, { body: { emails: ["plain@example.com", "listed@example.com"] } });
    t.is(added.status, 200);
    t.false("warnings" in added.body);

    const recipients = (await s.deliver()).map(([recipient]) => recipient).sort();
    t.deepEqual(recipients, ["asked@example.com", "asked@example.com", "listed@example.com"]);
    t.true(s.transport.messages.every((message) => message.message.subject === "Confirm your subscription to Acme & Co"));
  });

  test(name("a company's own template is the confirmation email when it chose one"), async (t) => {
    const s = await session(t, dialect);
    const template = await s.call("POST", "/api/v1/templates", {
      body: { name: "Confirm", subject: "{{ firstName }}, one more step for {{ companyName }}", html: '<p><a href="{{ confirmUrl }}">Yes, sign me up</a></p>' },
    });
    t.is(template.status, 200);
    const patched = await s.call("PATCH", "/api/v1/tracking-settings", { body: { doubleOptInEnabled: true, doubleOptInEmailId: template.body.template.id } });
    t.is(patched.status, 200);
    t.deepEqual(patched.body.consent, { doubleOptInEnabled: true, doubleOptInEmailId: template.body.template.id });
    const created = await s.call("POST", "/api/v1/subscribers", { body: { email: "bo@example.com", firstName: "Bo" } });
    t.deepEqual(created.body.optIn, { required: true, emailQueued: true });
    await s.deliver();
    const [email] = s.transport.messages;
    t.is(email!.message.subject, "Bo, one more step for Acme & Co");
    t.regex(email!.message.html!, /Yes, sign me up/);
    t.is((await s.page("POST", tokenIn(email!.message.html!))).status, 200);
    t.not(await s.confirmedAt(created.body.subscriber.id), null);
  });

  test(name("forged, expired and other companies' tokens confirm nothing"), async (t) => {
    const s = await session(t, dialect);
    const ask = async (company: CompanyFixture, email: string) => {
      const created = await s.call("POST", "/api/v1/subscribers", { body: { email, optInMode: "double_opt_in" } }, company);
      t.deepEqual(created.body.optIn, { required: true, emailQueued: true });
      return created.body.subscriber.id as string;
    };
    const annA = await ask(s.a, "ann@example.com");
    const annB = await ask(s.b, "ann@example.com");
    await s.deliver();
    const tokenOf = (companyName: string) => tokenIn(s.transport.messages.find((message) => message.message.subject.endsWith(companyName))!.message.html!);
    const tokenA = tokenOf("Acme & Co");
    const tokenB = tokenOf("Beta");

    const refused = async (token: string, why: string) => {
      for (const method of ["GET", "POST"] as const) {
        const page = await s.page(method, token);
        t.is(page.status, 404, `${why} (${method})`);
        t.regex(page.text, /not valid or has expired/);
      }
    };
    const [body, mac] = tokenA.split(".") as [string, string];
    await refused(`${body}.${mac.slice(0, -2)}${mac.endsWith("AA") ? "BB" : "AA"}`, "a changed signature");
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    await refused(`${Buffer.from(JSON.stringify({ ...payload, s: annB })).toString("base64url")}.${mac}`, "a changed contact");
    const signer = s.api.runtime.container.get<TokenSigner>(TokenSigner);
    await refused(signer.sign("tracking.unsubscribe", payload), "a token signed for another purpose");
    // Signed here, but naming B's contact under A (or A's under B): no such contact of that company.
    const tokens = s.api.runtime.container.get(ConfirmationTokens);
    const now = s.api.clock.now();
    await refused(tokens.sign({ companyId: s.a.companyId, subscriberId: annB }, now), "A's company with B's contact");
    await refused(tokens.sign({ companyId: s.b.companyId, subscriberId: annA }, now), "B's company with A's contact");
    await refused("not-a-token", "garbage");
    t.is(await s.confirmedAt(annA), null);
    t.is(await s.confirmedAt(annB), null);

    // B's own link confirms B's contact only.
    t.is((await s.page("POST", tokenB)).status, 200);
    t.not(await s.confirmedAt(annB), null);
    t.is(await s.confirmedAt(annA), null);

    // A's link expires after 7 days.
    s.api.clock.advance(7 * 24 * 60 * MINUTE + MINUTE);
    await refused(tokenA, "an expired link");
    t.is(await s.confirmedAt(annA), null);
    t.is(await s.confirmedEvents(annA), 0);
  });

  test(name("a contact an event creates is asked like one from POST /subscribers; one it only finds is not"), async (t) => {
    const s = await session(t, dialect);
    const event = (body: Record<string, unknown>, path = "/api/v1/subscribers/events") => s.call("POST", path, { body });
    t.false("optIn" in (await event({ email: "off@example.com", event: "signed_up" })).body, "double opt-in is off");

    t.is((await s.call("PATCH", "/api/v1/tracking-settings", { body: { doubleOptInEnabled: true } })).status, 200);
    const created = await event({ email: "new@example.com", event: "signed_up" });
    t.is(created.status, 200);
    t.like(created.body, { subscriber: { email: "new@example.com", created: true }, optIn: { required: true, emailQueued: true } });
    t.false("warnings" in created.body);
    const found = await event({ email: "new@example.com", event: "viewed_pricing" });
    t.like(found.body, { subscriber: { created: false } });
    t.false("optIn" in found.body, "an existing contact is not asked again by its events");
    t.false("optIn" in (await event({ email: "off@example.com", event: "signed_up" })).body, "nor a contact from before the setting");

    const bulk = await event({ email: "bulk@example.com", events: [{ name: "a" }, { name: "b" }] }, "/api/v1/subscribers/events/bulk");
    t.is(bulk.status, 200);
    t.like(bulk.body, { subscriber: { created: true }, optIn: { required: true, emailQueued: true } });
    const imported = await event({ events: [{ email: "imported@example.com", name: "a", eventId: "1" }] }, "/api/v1/subscribers/events/imports");
    t.is(imported.status, 200, JSON.stringify(imported.body));

    const delivered = await s.deliver();
    t.deepEqual(delivered.map(([recipient]) => recipient).sort(), ["bulk@example.com", "imported@example.com", "new@example.com"]);
    t.true(s.transport.messages.every((message) => message.message.subject === "Confirm your subscription to Acme & Co"));
    t.is((await marketing(s, "new@example.com")).status, 200);
    t.deepEqual(await s.deliver(), [["new@example.com", "suppressed"]], "marketing waits for the confirmation");
  });

  test(name("a contact tagging creates is asked too; one it only tags is not"), async (t) => {
    const s = await session(t, dialect);
    t.is((await s.call("POST", "/api/v1/subscribers", { body: { email: "known@example.com" } })).status, 200);
    t.is((await s.call("PATCH", "/api/v1/tracking-settings", { body: { doubleOptInEnabled: true } })).status, 200);
    const tagged = await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "tagged@example.com", tag: "vip" } });
    t.is(tagged.status, 200, JSON.stringify(tagged.body));
    const bulk = await s.call("POST", "/api/v1/subscribers/tags/bulk", { body: { email: "bulk@example.com", tags: ["a", "b"] } });
    t.is(bulk.status, 200, JSON.stringify(bulk.body));
    t.is((await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "known@example.com", tag: "vip" } })).status, 200);

    const delivered = await s.deliver();
    t.deepEqual(delivered.map(([recipient]) => recipient).sort(), ["bulk@example.com", "tagged@example.com"], "only the contacts tagging created");
    t.true(s.transport.messages.every((message) => message.message.subject === "Confirm your subscription to Acme & Co"));
    t.is((await marketing(s, "tagged@example.com")).status, 200);
    t.deepEqual(await s.deliver(), [["tagged@example.com", "suppressed"]], "marketing waits for the confirmation");
  });

  test(name("a contact an account membership creates is asked too; a known contact made a member is not"), async (t) => {
    const s = await session(t, dialect);
    t.is((await s.call("POST", "/api/v1/subscribers", { body: { email: "known@example.com" } })).status, 200);
    t.is((await s.call("POST", "/api/v1/accounts", { body: { externalId: "org-1", name: "Org" } })).status, 200);
    t.is((await s.call("PATCH", "/api/v1/tracking-settings", { body: { doubleOptInEnabled: true } })).status, 200);
    for (const email of ["member@example.com", "known@example.com"]) {
      const added = await s.call("POST", "/api/v1/accounts/org-1/members", { body: { email } });
      t.is(added.status, 200, JSON.stringify(added.body));
    }

    const delivered = await s.deliver();
    t.deepEqual(
      delivered.map(([recipient]) => recipient),
      ["member@example.com"],
      "only the contact the membership created",
    );
    t.is(s.transport.messages[0]?.message.subject, "Confirm your subscription to Acme & Co");
    t.is((await marketing(s, "member@example.com")).status, 200);
    t.deepEqual(await s.deliver(), [["member@example.com", "suppressed"]], "marketing waits for the confirmation");
  });

  test(name("emailQueued is false, with the reason, for an address whose mail delivery would suppress"), async (t) => {
    const s = await session(t, dialect);
    t.is((await s.call("PATCH", "/api/v1/tracking-settings", { body: { doubleOptInEnabled: true } })).status, 200);
    const suppressions = s.api.runtime.container.get<SuppressionRepository>(SuppressionRepository);
    const at = s.api.clock.now();
    for (const [email, reason] of [
      ["bounced@example.com", "hard_bounce"],
      ["left@example.com", "unsubscribe"],
    ] as const) {
      await suppressions.add({ companyId: s.a.companyId, email, reason, emailSendId: null, at });
    }

    const bounced = await s.call("POST", "/api/v1/subscribers", { body: { email: "bounced@example.com" } });
    t.deepEqual(bounced.body.optIn, { required: true, emailQueued: false });
    t.deepEqual(bounced.body.warnings, [suppressedAddress("bounced@example.com", "hard_bounce")]);
    // An unsubscribe stops marketing, not service mail: signing up again is how the person comes back.
    const returning = await s.call("POST", "/api/v1/subscribers", { body: { email: "left@example.com" } });
    t.deepEqual(returning.body.optIn, { required: true, emailQueued: true });
    t.deepEqual(await s.deliver(), [["left@example.com", "sent"]], "what emailQueued promised is what is delivered");

    // Once the company lifts the bounce block, the contact can be asked.
    t.is((await s.call("DELETE", "/api/v1/suppressions/bounced%40example.com")).status, 200);
    const again = await s.call("POST", "/api/v1/subscribers", { body: { email: "bounced@example.com" } });
    t.deepEqual(again.body.optIn, { required: true, emailQueued: true });
    t.deepEqual(await s.deliver(), [["bounced@example.com", "sent"]]);
  });

  test(name("a new contact is stored with its opt-in or not at all: a failure between the two leaves no contact that skipped confirming"), async (t) => {
    const s = await session(t, dialect);
    t.is((await s.call("PATCH", "/api/v1/tracking-settings", { body: { doubleOptInEnabled: true } })).status, 200);
    const knex = s.api.runtime.knex;
    const restore = await failInsertsInto(knex, "opt_ins");
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;
    const failures = [
      await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com" } }),
      await s.call("POST", `/api/v1/lists/${list.id}/subscribers`, { body: { emails: ["bob@example.com"] } }),
      await s.call("POST", "/api/v1/subscribers/events", { body: { email: "cat@example.com", event: "signed_up" } }),
    ];
    t.deepEqual(
      failures.map((failure) => failure.status),
      [500, 500, 500],
    );
    await restore();
    t.is(Number((await knex("subscribers").count({ n: "*" }).first())!.n), 0, "no contact was stored without its opt-in");

    // The client's retry creates each of them unconfirmed, and asks.
    t.deepEqual((await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com" } })).body.optIn, { required: true, emailQueued: true });
    t.is((await s.call("POST", `/api/v1/lists/${list.id}/subscribers`, { body: { emails: ["bob@example.com"] } })).body.created, 1);
    t.like((await s.call("POST", "/api/v1/subscribers/events", { body: { email: "cat@example.com", event: "signed_up" } })).body, {
      optIn: { required: true, emailQueued: true },
    });
    t.is(Number((await knex("opt_ins").whereNull("confirmed_at").count({ n: "*" }).first())!.n), 3);
    t.deepEqual((await s.deliver()).map(([recipient, status]) => `${recipient} ${status}`).sort(), [
      "ann@example.com sent",
      "bob@example.com sent",
      "cat@example.com sent",
    ]);
  });
}
