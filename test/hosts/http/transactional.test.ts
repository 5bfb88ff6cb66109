import test, { type ExecutionContext } from "ava";
import { dkimVerify } from "mailauth";
import { simpleParser, type ParsedMail } from "mailparser";
import { SetUpOperatorSender } from "../../../core/company/set-up-operator-sender.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { createCompanyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { createLogger } from "../../../hosts/logger.js";
import { startRuntime, type Runtime } from "../../../hosts/runtime.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { call, type RequestOptions } from "../../helpers/http-client.js";
import { BASE_URL, listen, TEST_CAPACITY } from "../../helpers/runtime.js";
import { smtpSink, type Received } from "../../helpers/smtp-sink.js";

const SENDER = "hello@brand.example";

interface Setup {
  readonly runtime: Runtime;
  readonly received: Received[];
  readonly company: CompanyFixture;
  /** Where the app listens (BASE_URL's paths are served here). */
  readonly url: string;
  api(method: string, path: string, options?: RequestOptions, key?: string): ReturnType<typeof call>;
  /** Waits until the SMTP sink holds `count` messages. */
  messages(count: number): Promise<ParsedMail[]>;
}

/** The real app, the real worker and a real SMTP server on loopback; a company whose sending domain the operator verified. */
async function setUp(t: ExecutionContext, dialect: Dialect, { sender = true } = {}): Promise<Setup> {
  const sink = await smtpSink(t);
  const database = await dialect.create();
  const runtime = await startRuntime({
    databaseUrl: database.url,
    logger: createLogger("silent"),
    baseUrl: BASE_URL,
    mailUrl: `smtp://127.0.0.1:${sink.port}`,
    capacity: TEST_CAPACITY,
  });
  const server = await listen(runtime);
  const worker = createWorker(runtime.container, { concurrency: 2, pollMs: 20 });
  await worker.start();
  t.teardown(async () => {
    await worker.stop();
    await server.close();
    await runtime.close();
    await database.drop();
  });
  const company = await createCompanyFixture(runtime.container, { name: "Brand & Co" });
  if (sender) {
    const made = await runtime.container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, SENDER);
    if (made._tag === "Left") throw new Error(made.left.message);
  }
  return {
    runtime,
    received: sink.received,
    company,
    url: server.url,
    api: (method, path, options = {}, key = company.ownerKey) => call(server.url, method, path, { ...options, key }),
    async messages(count) {
      const deadline = Date.now() + 15_000;
      while (sink.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      return Promise.all(sink.received.map((message) => simpleParser(message.raw)));
    },
  };
}

/** The List-Unsubscribe URL as the raw message carries it. */
const listUnsubscribe = (raw: Buffer): string => /^List-Unsubscribe:\s*<([^>\s]+)>/im.exec(raw.toString("utf8").replace(/\r?\n[ \t]+/g, " "))![1]!;

const WELCOME = {
  name: "Welcome Email",
  subject: "Welcome {{ firstName }}",
  html: '<p>Hi {{ firstName }}, your plan is {{ plan }}.</p><p><a href="https://brand.example/start">Start</a></p>',
};

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: transactional ${title}`;

  test(name("a saved email is sent to each recipient over SMTP, rendered for them, tracked, signed and unsubscribable"), async (t) => {
    const s = await setUp(t, dialect);
    t.is((await s.api("POST", "/api/v1/subscribers", { body: { email: "ada@example.org", firstName: "Ada" } })).status, 200);
    const saved = await s.api("POST", "/api/v1/transactional", { body: WELCOME });
    t.is(saved.status, 200);
    t.like(saved.body.transactional, {
      slug: "welcome-email",
      name: "Welcome Email",
      enabled: true,
      subject: WELCOME.subject,
      html: WELCOME.html,
      blocks: null,
    });

    const sent = await s.api("POST", "/api/v1/transactional/send", {
      body: { slug: "welcome-email", to: ["Ada@Example.org", "bob@example.net"], variables: { plan: "pro" } },
    });
    t.is(sent.status, 200);
    t.deepEqual(sent.body.to, ["ada@example.org", "bob@example.net"]);
    t.is(sent.body.emailType, "transactional");
    t.deepEqual(sent.body.transactional, { id: saved.body.transactional.id, name: "Welcome Email", slug: "welcome-email" });
    t.is(sent.body.emailSends.length, 2);
    t.is(sent.body.emailSendId, sent.body.emailSends[0].emailSendId);
    // Bob is not a contact: his firstName has no value, which the sender is told about.
    t.like(sent.body.diagnostics, { status: "warning", unusedVariables: [] });
    t.deepEqual(
      sent.body.diagnostics.missingRequiredVariables.map((missing: { name: string; lookupName: string; message: string }) => [missing.name, missing.message]),
      [["firstName", "'firstName' has no value; it rendered empty"]],
    );

    const messages = await s.messages(2);
    t.is(messages.length, 2);
    const ada = messages.find((message) => message.subject === "Welcome Ada")!;
    t.truthy(ada, "the contact's first name fills the subject");
    t.is(ada.from!.value[0]!.address, SENDER);
    t.regex(ada.html as string, /your plan is pro\./);
    t.regex(ada.text!, /your plan is pro\./);
    t.notRegex(ada.html as string, /href="https:\/\/brand\.example\/start"/, "the link is rewritten for click tracking");
    t.regex(ada.html as string, new RegExp(`${BASE_URL}/t/c/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+`));
    t.regex(ada.html as string, new RegExp(`${BASE_URL}/t/o/[^"]+\\.gif`), "the open pixel is there");
    const raw = s.received.find((message) => message.to.includes("ada@example.org"))!.raw;
    const unsubscribe = listUnsubscribe(raw);
    t.true(unsubscribe.startsWith(`${BASE_URL}/u/`));
    t.true((ada.html as string).includes(unsubscribe), "the footer links to the same unsubscribe page");
    t.regex(raw.toString("utf8"), /^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    t.regex(String(ada.messageId), /@brand\.example>?$/);

    // The DKIM signature verifies against the record the company was told to publish.
    const domains = await s.api("GET", "/api/v1/sending-domains");
    const dkim = domains.body.sendingDomains[0].records.find((record: { purpose: string }) => record.purpose === "dkim");
    const resolver = async (lookup: string, type: string) => {
      if (type === "TXT" && lookup === dkim.name) return [[dkim.value]];
      throw Object.assign(new Error(`no ${type} record for ${lookup}`), { code: "ENOTFOUND" });
    };
    t.is((await dkimVerify(raw, { resolver })).results[0]!.status.result, "pass");

    // The worker records a send as sent right after the SMTP server accepts it.
    const sentCount = async () => Number((await s.runtime.knex("email_sends").where({ status: "sent" }).count({ n: "*" }).first())!.n);
    for (const deadline = Date.now() + 10_000; (await sentCount()) < 2 && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 25));

    // The list carries each saved email's all-time numbers and sorts by them.
    t.is((await s.api("POST", "/api/v1/transactional", { body: { ...WELCOME, name: "Receipt" } })).status, 200);
    const bySends = await s.api("GET", "/api/v1/transactional?sort=sends");
    t.deepEqual(
      bySends.body.transactional.map((e: { slug: string; stats: { sent: number } }) => [e.slug, e.stats.sent]),
      [
        ["welcome-email", 2],
        ["receipt", 0],
      ],
    );
    t.deepEqual(
      (await s.api("GET", "/api/v1/transactional?sort=sends&order=asc")).body.transactional.map((e: { slug: string }) => e.slug),
      ["receipt", "welcome-email"],
    );
    t.deepEqual(
      (await s.api("GET", "/api/v1/transactional")).body.transactional.map((e: { slug: string }) => e.slug),
      ["receipt", "welcome-email"],
      "newest first by default",
    );
    t.is((await s.api("GET", "/api/v1/transactional?sort=popular")).status, 422);

    const sends = await s.runtime.knex("email_sends").where({ company_id: s.company.companyId }).orderBy("recipient_email");
    t.deepEqual(
      sends.map((row) => [row.recipient_email, row.status, row.mailbox_provider, row.transactional_email_id]),
      [
        ["ada@example.org", "sent", "other", saved.body.transactional.id],
        ["bob@example.net", "sent", "other", saved.body.transactional.id],
      ],
    );
  });

  test(name("direct content, marketing sends, one-click unsubscribe and the suppression of the next send"), async (t) => {
    const s = await setUp(t, dialect);
    const first = await s.api("POST", "/api/v1/transactional/send", {
      body: { to: "reader@example.org", subject: "News for {{ name }}", body: "<p>Hello</p>", emailType: "marketing", variables: { name: "you" } },
    });
    t.is(first.status, 200);
    t.is(first.body.transactional, undefined);
    const [message] = await s.messages(1);
    t.is(message!.subject, "News for you");
    const unsubscribe = listUnsubscribe(s.received[0]!.raw);

    // RFC 8058: the mail client POSTs to the List-Unsubscribe URL (BASE_URL is served here by the test server).
    const posted = await fetch(`${s.url}${new URL(unsubscribe).pathname}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    t.is(posted.status, 200);

    const second = await s.api("POST", "/api/v1/transactional/send", {
      body: { to: "reader@example.org", subject: "More news", body: "<p>Again</p>", emailType: "marketing" },
    });
    t.is(second.status, 200);
    const deadline = Date.now() + 10_000;
    let status = "pending";
    while (status === "pending" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await s.runtime.knex("email_sends").where({ id: second.body.emailSendId }).first("status")).status;
    }
    t.is(status, "suppressed");
    t.is(s.received.length, 1, "nothing more reached the SMTP server");
  });

  test(name("send requests are checked before anything is queued"), async (t) => {
    const s = await setUp(t, dialect);
    const send = (body: Record<string, unknown>) => s.api("POST", "/api/v1/transactional/send", { body });
    const direct = { subject: "Hi", body: "<p>Hi</p>" };
    t.like((await send({ ...direct })).body, { success: false, error: "to is required: one address or a list of up to 50" });
    t.is((await send({ ...direct, to: "not-an-email" })).status, 422);
    t.is((await send({ ...direct, to: Array.from({ length: 51 }, (_, i) => `r${i}@example.org`) })).status, 422);
    t.like((await send({ to: "a@example.org" })).body, {
      error: "Provide slug (or templateId) of a saved transactional email, or subject and body for direct content",
    });
    t.like((await send({ ...direct, slug: "welcome", to: "a@example.org" })).body, {
      error: "Provide either slug (or templateId) or subject and body, not both",
    });
    t.like((await send({ ...direct, to: ["a@example.org", "b@example.org"], emailType: "marketing" })).body, {
      error: "emailType marketing takes exactly one to address and no cc or bcc",
    });
    t.like((await send({ ...direct, to: "a@example.org", bcc: "b@example.org", subscriberExternalId: "u1" })).body, {
      error: "subscriberExternalId applies to a single recipient only",
    });
    t.like((await send({ ...direct, to: "a@example.org", attachments: [{ filename: "a.pdf", path: "https://example.org/a.pdf" }] })).body, {
      error: "attachments[0]: path (a URL) is not supported: send the file as base64 content",
    });
    t.is((await send({ ...direct, to: "x..y@a.test" })).status, 422);
    // Whatever becomes a header is refused, not folded, when it holds CR, LF or NUL.
    const attachment = { filename: "a.txt", content: Buffer.from("hi").toString("base64") };
    const injections: Array<[Record<string, unknown>, string]> = [
      [{ attachments: [{ ...attachment, contentType: "text/plain\r\nX-Injected: 1" }] }, "attachments.0.contentType"],
      [{ attachments: [attachment, { ...attachment, filename: "a.txt\nX-Injected: 1" }] }, "attachments.1.filename"],
      [{ attachments: [{ ...attachment, contentId: "logo\r" }] }, "attachments.0.contentId"],
      [{ from: "Brand\r\nBcc: eve@example.org <hello@brand.example>" }, "from"],
      [{ replyTo: "Help\n <help@brand.example>" }, "replyTo"],
      // NUL is refused in every request body before any codec sees it.
      [{ from: "Brand\u0000 <hello@brand.example>" }, "from"],
    ];
    for (const [fields, path] of injections) {
      const refused = await send({ ...direct, to: "a@example.org", ...fields });
      t.is(refused.status, 422, path);
      t.false(refused.body.success, path);
      t.deepEqual(
        refused.body.errors.map((e: { path: string }) => e.path),
        [path],
      );
      t.regex(refused.body.errors[0].message, /^must not contain (line breaks or )?NUL characters$/, path);
    }
    const missing = await send({ slug: "nope", to: "a@example.org" });
    t.is(missing.status, 404);
    t.is(missing.body.error, "Transactional email not found");
    t.is(
      await s.runtime
        .knex("email_sends")
        .count({ n: "*" })
        .first()
        .then((row) => Number(row!.n)),
      0,
    );
  });

  test(name("a merge variable cannot make a link or image run script: the sent HTML carries '#' instead, untracked"), async (t) => {
    const s = await setUp(t, dialect);
    const body = '<p><a href="{{url}}">Open</a><img src="{{url}}" alt=""><a href="https://brand.example/ok">OK</a></p>';
    const sent = await s.api("POST", "/api/v1/transactional/send", {
      body: { to: "a@example.org", subject: "Hi", body, variables: { url: " JaVaScRiPt:alert(1)" } },
    });
    t.is(sent.status, 200);
    const [message] = await s.messages(1);
    const html = String(message!.html);
    t.false(/javascript:/i.test(html));
    t.regex(html, /<a href="#">Open<\/a><img src="#" alt="">/);
    t.regex(html, /<a href="https?:\/\/[^"]+\/t\/c\/[^"]+">OK<\/a>/, "the web link is still tracked");
  });

  test(name("a company without a verified sender gets a clear 409"), async (t) => {
    const s = await setUp(t, dialect, { sender: false });
    const sent = await s.api("POST", "/api/v1/transactional/send", { body: { to: "a@example.org", subject: "Hi", body: "<p>Hi</p>" } });
    t.is(sent.status, 409);
    t.regex(sent.body.error, /^No verified sender/);
  });

  test(name("a saved email goes out in the send's locale, else the contact's locale attribute, with fallbacks to the default content"), async (t) => {
    const s = await setUp(t, dialect);
    const receipt = { name: "Receipt", slug: "receipt", subject: "Receipt for {{ firstName }}", html: "<p>Paid, {{ firstName }}.</p>" };
    t.is((await s.api("POST", "/api/v1/transactional", { body: receipt })).status, 200);
    for (const [locale, subject, html] of [
      ["es", "Recibo para {{ firstName }}", "<p>Pagado, {{ firstName }}.</p>"],
      ["pt-BR", "Recibo de {{ firstName }}", "<p>Pago, {{ firstName }}.</p>"],
    ] as const) {
      t.is((await s.api("PUT", `/api/v1/templates/receipt/localizations/${locale}`, { body: { subject, html } })).status, 200);
    }
    const contacts = [
      { email: "ana@example.org", firstName: "Ana", customAttributes: { locale: "es-MX" } },
      { email: "joao@example.org", firstName: "João", customAttributes: { locale: "pt-br" } },
      { email: "fritz@example.org", firstName: "Fritz", customAttributes: { locale: "de" } },
      { email: "odd@example.org", firstName: "Odd", customAttributes: { locale: "not a locale" } },
      { email: "kim@example.org", firstName: "Kim" },
    ];
    for (const contact of contacts) t.is((await s.api("POST", "/api/v1/subscribers", { body: contact })).status, 200);

    const send = (body: Record<string, unknown>) => s.api("POST", "/api/v1/transactional/send", { body: { slug: "receipt", ...body } });
    const byAttribute = await send({ to: contacts.map((contact) => contact.email) });
    t.is(byAttribute.status, 200, JSON.stringify(byAttribute.body));
    t.deepEqual(
      byAttribute.body.emailSends.map((queued: { to: string; locale: string }) => [queued.to, queued.locale]),
      [
        ["ana@example.org", "es"],
        ["joao@example.org", "pt-BR"],
        ["fritz@example.org", "default"],
        ["odd@example.org", "default"],
        ["kim@example.org", "default"],
      ],
    );
    const explicit = await send({ to: "kim@example.org", locale: "pt-BR" });
    t.is(explicit.body.emailSends[0].locale, "pt-BR", "the send's locale is used for a contact without one");
    const forcedDefault = await send({ to: "ana@example.org", locale: "default" });
    t.is(forcedDefault.body.emailSends[0].locale, "default", "`default` wins over the contact's attribute");
    const overridden = await send({ to: "ana@example.org", locale: "pt" });
    t.is(overridden.body.emailSends[0].locale, "default", "a language with no variant of its own falls back to the default content");
    const direct = await s.api("POST", "/api/v1/transactional/send", { body: { to: "ana@example.org", subject: "Hi", body: "<p>Hi</p>", locale: "es" } });
    t.is(direct.body.emailSends[0].locale, "default", "direct content has no variants");

    const messages = await s.messages(9);
    const subjects = (to: string) =>
      messages
        .filter((message) => (Array.isArray(message.to) ? message.to[0] : message.to)!.value[0]!.address === to)
        .map((message) => message.subject)
        .sort();
    t.deepEqual(subjects("ana@example.org"), ["Hi", "Receipt for Ana", "Receipt for Ana", "Recibo para Ana"]);
    t.deepEqual(subjects("joao@example.org"), ["Recibo de João"]);
    t.deepEqual(subjects("fritz@example.org"), ["Receipt for Fritz"]);
    t.deepEqual(subjects("odd@example.org"), ["Receipt for Odd"]);
    t.deepEqual(subjects("kim@example.org"), ["Receipt for Kim", "Recibo de Kim"]);
    const spanish = messages.find((message) => message.subject === "Recibo para Ana")!;
    t.regex(spanish.html as string, /Pagado, Ana\./);
    t.regex(spanish.text!, /Pagado, Ana\./);

    const refused = await send({ to: "ana@example.org", locale: "spanish please" });
    t.deepEqual([refused.status, refused.body.errors], [422, [{ path: "locale", message: "must be a locale such as es or pt-BR" }]]);
  });

  test(name("cc and bcc get their own sends; the Idempotency-Key replays the first answer and refuses another body"), async (t) => {
    const s = await setUp(t, dialect);
    const body = { to: "a@example.org", cc: ["b@example.org", "a@example.org"], bcc: "c@example.org", subject: "Hi", body: "<p>Hi</p>" };
    const headers = { "idempotency-key": "order-42" };
    const first = await s.api("POST", "/api/v1/transactional/send", { body, headers });
    t.is(first.status, 200);
    t.deepEqual(first.body.to, ["a@example.org"]);
    t.deepEqual(first.body.cc, ["b@example.org"]);
    t.deepEqual(first.body.bcc, ["c@example.org"]);
    const again = await s.api("POST", "/api/v1/transactional/send", { body, headers });
    t.is(again.status, 200);
    t.is(again.headers.get("idempotent-replayed"), "true");
    t.is(again.body.emailSendId, first.body.emailSendId);
    const other = await s.api("POST", "/api/v1/transactional/send", { body: { ...body, subject: "Other" }, headers });
    t.is(other.status, 409);
    const rows = await s.runtime.knex("email_sends").where({ company_id: s.company.companyId }).orderBy("recipient_email");
    t.is(rows.length, 3, "one send per distinct recipient, none for the replay");
    const copy = rows.find((row) => row.recipient_email === "c@example.org")!;
    t.like(typeof copy.payload === "string" ? JSON.parse(copy.payload) : copy.payload, { copyOf: { emailSendId: first.body.emailSendId, role: "bcc" } });
    t.is((await s.messages(3)).length, 3);
  });

  test(name("a change to the sender reaches the very next send (reads cached for speed are dropped on change)"), async (t) => {
    const s = await setUp(t, dialect);
    const direct = (to: string) => s.api("POST", "/api/v1/transactional/send", { body: { to, subject: "Receipt", body: "<p>Thanks</p>" } });
    t.is((await direct("first@example.org")).status, 200);
    const [first] = await s.messages(1);
    const originalName = first!.from!.value[0]!.name;

    const renamed = await s.api("PATCH", `/api/v1/companies/${s.company.companyId}`, { body: { fromName: "Receipts Desk" } });
    t.is(renamed.status, 200, JSON.stringify(renamed.body));
    t.is((await direct("second@example.org")).status, 200);
    const second = (await s.messages(2)).find((message) => message.to && JSON.stringify(message.to).includes("second@example.org"))!;
    t.not(originalName, "Receipts Desk");
    t.deepEqual(second.from!.value[0], { address: SENDER, name: "Receipts Desk" });
  });

  test(name("saved emails: slug rules, disabled sends, update, delete keeps content and frees the slug, tenancy"), async (t) => {
    const s = await setUp(t, dialect);
    const created = await s.api("POST", "/api/v1/transactional", { body: { ...WELCOME, slug: "welcome" } });
    t.is(created.status, 200);
    const duplicate = await s.api("POST", "/api/v1/transactional", { body: { ...WELCOME, slug: "welcome" } });
    t.is(duplicate.status, 409);
    t.is(duplicate.body.error, "A transactional email with slug 'welcome' already exists");
    t.is((await s.api("POST", "/api/v1/transactional", { body: { ...WELCOME, slug: "Not A Slug" } })).status, 400);
    t.is((await s.api("POST", "/api/v1/transactional", { body: { name: "x", subject: "y" } })).body.error, "Provide exactly one of html or blocks");

    // The saved email with the variables a send should supply (the service's own links left out).
    const got = await s.api("GET", "/api/v1/transactional/welcome");
    t.like(got.body.transactional, { slug: "welcome", subject: WELCOME.subject, html: WELCOME.html, blocks: null, variables: ["firstName", "plan"] });

    const disabled = await s.api("PATCH", "/api/v1/transactional/welcome", { body: { enabled: false, subject: "Hello {{ firstName }}" } });
    t.like(disabled.body.transactional, { enabled: false, subject: "Hello {{ firstName }}" });
    t.is((await s.api("PATCH", "/api/v1/transactional/welcome", { body: {} })).status, 400);
    const refused = await s.api("POST", "/api/v1/transactional/send", { body: { slug: "welcome", to: "a@example.org" } });
    t.is(refused.status, 409);
    t.regex(refused.body.error, /is disabled/);
    t.deepEqual(
      (await s.api("GET", "/api/v1/transactional?status=disabled")).body.transactional.map((e: { slug: string }) => e.slug),
      ["welcome"],
    );
    t.deepEqual((await s.api("GET", "/api/v1/transactional?status=active")).body.transactional, []);

    const other = await createCompanyFixture(s.runtime.container);
    t.is((await s.api("GET", "/api/v1/transactional/welcome", {}, other.ownerKey)).status, 404);
    t.is((await s.api("DELETE", `/api/v1/transactional/${created.body.transactional.id}`, {}, other.ownerKey)).status, 404);

    const deleted = await s.api("DELETE", "/api/v1/transactional/welcome");
    t.deepEqual(deleted.body, {
      success: true,
      message: "Transactional email deleted",
      deleted: { id: created.body.transactional.id, slug: "welcome", name: "Welcome Email", emailId: created.body.transactional.emailId },
    });
    t.is((await s.api("GET", "/api/v1/transactional/welcome")).status, 404);
    const template = await s.api("GET", `/api/v1/templates/${created.body.transactional.emailId}`);
    t.is(template.status, 200, "the content stays as a reusable template");
    t.is((await s.api("POST", "/api/v1/transactional", { body: { ...WELCOME, slug: "welcome" } })).status, 200, "the slug is free again");
  });
}
