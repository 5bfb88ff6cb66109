import test, { type ExecutionContext } from "ava";
import type { Knex } from "knex";
import { toDbDate } from "../../../adapters/knex/row-codecs.js";
import { TokenSigner } from "../../../core/ports/token-signer.js";
import { SuppressionRepository } from "../../../core/suppressions/ports.js";
import { TrackingLinks, type SendTrackingLinks } from "../../../core/tracking/tracking-links.js";
import { createCompanyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { Database } from "../../../hosts/tokens.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { BASE_URL } from "../../helpers/runtime.js";

const CHROME = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const NOW = "2026-11-22T10:00:00.000Z";
const HOUR_AGO = new Date(Date.parse(NOW) - 3_600_000);
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

interface Tracking {
  readonly api: ApiFixture;
  readonly knex: Knex;
  readonly a: CompanyFixture;
  readonly b: CompanyFixture;
  /** A public URL of the app, fetched on the test server (no redirects followed). */
  fetch(url: string, init?: RequestInit & { userAgent?: string }): Promise<Response>;
  contact(company: CompanyFixture, email: string): Promise<{ id: string; status: string }>;
  send(company: CompanyFixture, options?: SendOptions): Promise<SendTrackingLinks & { id: string }>;
  sendRow(id: string): Promise<Record<string, unknown>>;
  events(id: string): Promise<Array<Record<string, unknown>>>;
}

interface SendOptions {
  readonly subscriberId?: string | null;
  readonly email?: string;
  readonly sentAt?: Date | null;
  readonly openTracking?: boolean;
  readonly clickTracking?: boolean;
}

let sendSequence = 0;

async function tracking(t: ExecutionContext, dialect: Dialect): Promise<Tracking> {
  const api = await apiFixture(t, dialect);
  const container = api.runtime.container;
  const knex = container.get<Knex>(Database);
  const a = await createCompanyFixture(container, { name: "Acme & Co <Shop>" });
  const b = await createCompanyFixture(container, { name: "Beta Ltd" });
  const iso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString());
  return {
    api,
    knex,
    a,
    b,
    fetch: (url, init = {}) => {
      const { userAgent, ...rest } = init;
      return fetch(url.replace(BASE_URL, api.server.url), {
        redirect: "manual",
        ...rest,
        headers: { "user-agent": userAgent ?? CHROME, ...(rest.headers as Record<string, string> | undefined) },
      });
    },
    async contact(company, email) {
      const response = await api.call("GET", `/api/v1/subscribers/${encodeURIComponent(email)}`, { key: company.ownerKey });
      if (response.status === 200) return response.body.subscriber;
      const created = await api.call("POST", "/api/v1/subscribers", { key: company.ownerKey, body: { email } });
      t.is(created.status, 200);
      return created.body.subscriber;
    },
    async send(company, options = {}) {
      sendSequence += 1;
      const id = `send_test${String(sendSequence).padStart(6, "0")}${Math.random().toString(36).slice(2, 8)}`;
      const created = toDbDate(HOUR_AGO);
      await knex("email_sends").insert({
        id,
        company_id: company.companyId,
        subscriber_id: options.subscriberId ?? null,
        recipient_email: options.email ?? "ann@example.com",
        email_type: "campaign",
        subject: "Hello",
        sender_email: "news@acme.example",
        status: "sent",
        mailbox_provider: "other",
        open_tracking: options.openTracking ?? true,
        click_tracking: options.clickTracking ?? true,
        sent_at: options.sentAt === undefined ? created : toDbDate(options.sentAt),
        created_at: created,
        updated_at: created,
      });
      return { id, ...container.get(TrackingLinks).forSend(id) };
    },
    sendRow: async (id) => {
      const row = await knex("email_sends").where({ id }).first();
      return Object.fromEntries(
        [
          "first_opened_at",
          "first_human_opened_at",
          "first_clicked_at",
          "first_human_clicked_at",
          "first_machine_opened_at",
          "first_machine_clicked_at",
          "unsubscribed_at",
        ].map((column) => [column, iso(row[column])]),
      );
    },
    events: async (id) =>
      (
        await knex("email_events")
          .where({ email_send_id: id })
          .orderBy([{ column: "event_time" }, { column: "id" }])
      ).map((row: Record<string, unknown>) => ({
        type: row.event_type,
        url: row.url ?? null,
        machine: row.machine === true || row.machine === 1,
        reason: row.machine_reason ?? null,
        companyId: row.company_id,
        at: iso(row.event_time),
      })),
  };
}

const none = {
  first_opened_at: null,
  first_human_opened_at: null,
  first_clicked_at: null,
  first_human_clicked_at: null,
  first_machine_opened_at: null,
  first_machine_clicked_at: null,
  unsubscribed_at: null,
};

/** The token in a URL, with one character of its signed part changed. */
const tampered = (url: string): string => {
  const at = url.lastIndexOf(".") - 3;
  return `${url.slice(0, at)}${url[at] === "A" ? "B" : "A"}${url.slice(at + 1)}`;
};

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("open pixel: a 1x1 transparent GIF never cached; the first open is kept, every open is an event"), async (t) => {
    const s = await tracking(t, dialect);
    const send = await s.send(s.a);
    t.regex(send.openPixelUrl, new RegExp(`^${BASE_URL}/t/o/[\\w-]+\\.[\\w-]+\\.gif$`));

    const response = await s.fetch(send.openPixelUrl);
    t.is(response.status, 200);
    t.is(response.headers.get("content-type"), "image/gif");
    t.is(response.headers.get("cache-control"), "no-store");
    const bytes = Buffer.from(await response.arrayBuffer());
    t.deepEqual(bytes, GIF);
    t.is(bytes.subarray(0, 6).toString("latin1"), "GIF89a");
    t.deepEqual([bytes.readUInt16LE(6), bytes.readUInt16LE(8)], [1, 1], "1x1");

    s.api.clock.advance(60_000);
    t.is((await s.fetch(send.openPixelUrl)).status, 200);
    t.deepEqual(await s.sendRow(send.id), { ...none, first_opened_at: NOW, first_human_opened_at: NOW });
    const events = await s.events(send.id);
    t.deepEqual(
      events.map((e) => [e.type, e.machine, e.at]),
      [
        ["open", false, NOW],
        ["open", false, "2026-11-22T10:01:00.000Z"],
      ],
    );
    const stored = await s.knex("email_events").where({ email_send_id: send.id }).first();
    t.is(stored.user_agent, CHROME);
    t.regex(String(stored.ip), /127\.0\.0\.1/);
  });

  test(name("open pixel: HEAD is served and kept apart as machine; a bad token still gets the pixel and records nothing"), async (t) => {
    const s = await tracking(t, dialect);
    const send = await s.send(s.a);

    const head = await s.fetch(send.openPixelUrl, { method: "HEAD" });
    t.is(head.status, 200);
    t.is(head.headers.get("content-type"), "image/gif");
    t.is((await head.arrayBuffer()).byteLength, 0);
    t.deepEqual(
      (await s.events(send.id)).map((e) => [e.type, e.machine, e.reason]),
      [["open", true, "head_request"]],
    );
    t.deepEqual(await s.sendRow(send.id), { ...none, first_opened_at: NOW, first_machine_opened_at: NOW }, "opened, but not by a person");

    for (const url of [
      tampered(send.openPixelUrl),
      `${s.api.server.url}/t/o/garbage.gif`,
      `${s.api.server.url}/t/o/${send.unsubscribeUrl.split("/u/")[1]}.gif`,
    ]) {
      const response = await s.fetch(url);
      t.is(response.status, 200, url);
      t.deepEqual(Buffer.from(await response.arrayBuffer()), GIF);
    }
    t.is((await s.events(send.id)).length, 1, "nothing more recorded");
  });

  test(name("click: 302 to the signed URL, recorded; a person's click also counts as an open"), async (t) => {
    const s = await tracking(t, dialect);
    const send = await s.send(s.a);
    const destination = "https://shop.example/sale?utm_source=email&x=%C3%A9#top";
    const link = send.rewriteLink(destination);
    t.regex(link, new RegExp(`^${BASE_URL}/t/c/[\\w-]+\\.[\\w-]+$`));

    const response = await s.fetch(link);
    t.is(response.status, 302);
    t.is(response.headers.get("location"), destination);
    t.is(response.headers.get("cache-control"), "no-store");
    t.is(response.headers.get("referrer-policy"), "no-referrer");
    t.deepEqual(
      (await s.events(send.id)).map((e) => [e.type, e.url, e.machine]),
      [["click", destination, false]],
    );
    t.deepEqual(await s.sendRow(send.id), { ...none, first_opened_at: NOW, first_human_opened_at: NOW, first_clicked_at: NOW, first_human_clicked_at: NOW });

    // A query added to the tracking link changes nothing: the destination is the signed one.
    const steered = await s.fetch(`${link}?url=https://evil.example/`);
    t.is(steered.headers.get("location"), destination);
    const head = await s.fetch(link, { method: "HEAD" });
    t.deepEqual([head.status, head.headers.get("location")], [302, destination]);
    t.deepEqual(
      (await s.events(send.id)).map((e) => e.reason),
      [null, null, "head_request"],
    );
  });

  test(name("click: a forged, modified or misused token gets a 404 page and no redirect: no open redirect"), async (t) => {
    const s = await tracking(t, dialect);
    const send = await s.send(s.a);
    const link = send.rewriteLink("https://shop.example/");
    const token = link.split("/t/c/")[1]!;
    const [, mac] = token.split(".");
    const otherUrl = `${Buffer.from(JSON.stringify({ s: send.id, u: "https://evil.example/" })).toString("base64url")}.${mac}`;
    const pixelToken = send.openPixelUrl.split("/t/o/")[1]!.replace(/\.gif$/, "");

    for (const url of [
      tampered(link),
      `${s.api.server.url}/t/c/${otherUrl}`,
      `${s.api.server.url}/t/c/${pixelToken}`,
      `${s.api.server.url}/t/c/https%3A%2F%2Fevil.example%2F`,
    ]) {
      const response = await s.fetch(url);
      t.is(response.status, 404, url);
      t.is(response.headers.get("location"), null);
      t.regex(response.headers.get("content-type") ?? "", /^text\/html/);
      t.regex(await response.text(), /Link not found/);
    }
    t.deepEqual(await s.events(send.id), []);
    t.deepEqual(await s.sendRow(send.id), none);
  });

  test(name("click: a signed token whose destination is not a web link (one signed before that was checked) gets a 404 page, no redirect"), async (t) => {
    const s = await tracking(t, dialect);
    const send = await s.send(s.a);
    const signer = s.api.runtime.container.get<TokenSigner>(TokenSigner);
    const web = await s.fetch(`${s.api.server.url}/t/c/${signer.sign("tracking.click", { s: send.id, u: "https://shop.example/" })}`);
    t.is(web.headers.get("location"), "https://shop.example/", "a token signed the same way for a web link redirects");
    for (const destination of [
      "javascript:alert(1)",
      " JaVaScRiPt:alert(1)",
      "java\tscript:alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html,<script>alert(1)</script>",
    ]) {
      const response = await s.fetch(`${s.api.server.url}/t/c/${signer.sign("tracking.click", { s: send.id, u: destination })}`);
      t.is(response.status, 404, destination);
      t.is(response.headers.get("location"), null, destination);
      t.regex(await response.text(), /Link not found/);
    }
    t.deepEqual(
      (await s.events(send.id)).map((event) => [event.type, event.url]),
      [["click", "https://shop.example/"]],
      "only the web link's click is recorded",
    );
  });

  test(name("tracking turned off on the send: nothing recorded, the click still redirects"), async (t) => {
    const s = await tracking(t, dialect);
    const send = await s.send(s.a, { openTracking: false, clickTracking: false });
    t.is((await s.fetch(send.openPixelUrl)).status, 200);
    const click = await s.fetch(send.rewriteLink("https://shop.example/"));
    t.deepEqual([click.status, click.headers.get("location")], [302, "https://shop.example/"]);
    t.deepEqual(await s.events(send.id), []);
    t.deepEqual(await s.sendRow(send.id), none);

    // Clicks tracked without opens: the click does not invent an open.
    const clicksOnly = await s.send(s.a, { openTracking: false });
    await s.fetch(clicksOnly.rewriteLink("https://shop.example/"));
    t.deepEqual(await s.sendRow(clicksOnly.id), { ...none, first_clicked_at: NOW, first_human_clicked_at: NOW });
  });

  test(name("machine engagement: scanners, prefetch proxies and too-fast requests are flagged and kept out of the human firsts"), async (t) => {
    const s = await tracking(t, dialect);
    const scanned = await s.send(s.a);
    await s.fetch(scanned.rewriteLink("https://shop.example/"), { userAgent: "Mozilla/5.0 Mimecast URL Protect" });
    await s.fetch(scanned.openPixelUrl, { userAgent: "Mozilla/5.0" });
    t.deepEqual(
      (await s.events(scanned.id)).map((e) => [e.type, e.machine, e.reason]),
      [
        ["click", true, "security_scanner"],
        ["open", true, "known_proxy"],
      ],
    );
    t.deepEqual(await s.sendRow(scanned.id), {
      ...none,
      first_opened_at: NOW,
      first_clicked_at: NOW,
      first_machine_opened_at: NOW,
      first_machine_clicked_at: NOW,
    });

    // The person comes later: the human firsts are theirs.
    s.api.clock.advance(120_000);
    await s.fetch(scanned.openPixelUrl);
    t.deepEqual(await s.sendRow(scanned.id), {
      ...none,
      first_opened_at: NOW,
      first_human_opened_at: "2026-11-22T10:02:00.000Z",
      first_clicked_at: NOW,
      first_machine_opened_at: NOW,
      first_machine_clicked_at: NOW,
    });

    const justSent = await s.send(s.a, { sentAt: new Date(Date.parse(NOW) + 120_000 - 1_000) });
    await s.fetch(justSent.openPixelUrl);
    t.deepEqual(
      (await s.events(justSent.id)).map((e) => e.reason),
      ["too_fast"],
    );

    const bot = await s.send(s.a);
    await s.fetch(bot.rewriteLink("https://shop.example/"), { userAgent: "python-requests/2.31" });
    t.deepEqual(
      (await s.events(bot.id)).map((e) => e.reason),
      ["bot"],
    );
  });

  test(name("machine engagement: every link of a send clicked at once flags all those clicks, earlier ones too"), async (t) => {
    const s = await tracking(t, dialect);
    const send = await s.send(s.a);
    const first = await s.fetch(send.rewriteLink("https://shop.example/a"));
    t.is(first.status, 302);
    t.deepEqual(await s.sendRow(send.id), { ...none, first_opened_at: NOW, first_human_opened_at: NOW, first_clicked_at: NOW, first_human_clicked_at: NOW });

    s.api.clock.advance(300);
    await s.fetch(send.rewriteLink("https://shop.example/b"));
    s.api.clock.advance(300);
    await s.fetch(send.rewriteLink("https://shop.example/c"));
    t.deepEqual(
      (await s.events(send.id)).map((e) => [e.url, e.machine, e.reason]),
      [
        ["https://shop.example/a", true, "all_links"],
        ["https://shop.example/b", true, "all_links"],
        ["https://shop.example/c", true, "all_links"],
      ],
    );
    t.deepEqual(
      await s.sendRow(send.id),
      { ...none, first_clicked_at: NOW, first_machine_clicked_at: NOW },
      "no person engaged: the earlier click is a machine's too",
    );

    // Concurrent scanner clicks on a fresh send: whichever arrives last flags them all.
    const racing = await s.send(s.a);
    await Promise.all(["x", "y", "z"].map((path) => s.fetch(racing.rewriteLink(`https://shop.example/${path}`))));
    t.deepEqual(
      (await s.events(racing.id)).map((e) => e.reason),
      ["all_links", "all_links", "all_links"],
    );
    t.is((await s.sendRow(racing.id)).first_human_clicked_at, null);
    t.is((await s.sendRow(racing.id)).first_machine_clicked_at, "2026-11-22T10:00:00.600Z");

    // A person clicking a second link later is a person.
    const person = await s.send(s.a);
    await s.fetch(person.rewriteLink("https://shop.example/a"));
    s.api.clock.advance(10_000);
    await s.fetch(person.rewriteLink("https://shop.example/b"));
    t.deepEqual(
      (await s.events(person.id)).map((e) => e.machine),
      [false, false],
    );
    t.is((await s.sendRow(person.id)).first_machine_clicked_at, null);
  });

  test(
    name("the contact's detail: emailStats count people's opens and clicks (machines on request), and the activity merges email and custom events"),
    async (t) => {
      const s = await tracking(t, dialect);
      const ann = await s.contact(s.a, "ann@example.com");
      const other = await s.contact(s.a, "bob@example.com");
      const first = await s.send(s.a, { subscriberId: ann.id });
      const second = await s.send(s.a, { subscriberId: ann.id });
      await s.send(s.a, { subscriberId: other.id });
      const annAtB = await s.contact(s.b, "ann@example.com");
      const elsewhere = await s.send(s.b, { subscriberId: annAtB.id });
      t.is((await s.fetch(elsewhere.openPixelUrl)).status, 200, "another company's send to the same address");

      // A scanner fetches the pixel (HEAD) first; then Ann opens and clicks the first email.
      t.is((await s.fetch(first.openPixelUrl, { method: "HEAD" })).status, 200);
      s.api.clock.advance(60_000);
      t.is((await s.fetch(first.openPixelUrl)).status, 200);
      s.api.clock.advance(60_000);
      t.is((await s.fetch(first.rewriteLink("https://acme.example/pricing"))).status, 302);
      s.api.clock.advance(60_000);
      const event = await s.api.call("POST", "/api/v1/subscribers/events", { key: s.a.ownerKey, body: { email: "ann@example.com", event: "saas.purchase" } });
      t.is(event.status, 200);

      const detail = async (query = "") => {
        const got = await s.api.call("GET", `/api/v1/subscribers/ann%40example.com${query}`, { key: s.a.ownerKey });
        t.is(got.status, 200);
        return got.body.subscriber;
      };
      const ann1 = await detail();
      const hourAgo = HOUR_AGO.toISOString();
      t.deepEqual(ann1.emailStats, {
        sent: 2,
        delivered: 0,
        opened: 1,
        clicked: 1,
        bounced: 0,
        complained: 0,
        unsubscribed: 0,
        lastSentAt: hourAgo,
        lastOpenedAt: "2026-11-22T10:01:00.000Z",
        lastClickedAt: "2026-11-22T10:02:00.000Z",
      });
      t.deepEqual(
        ann1.activity.map((a: any) => [
          a.eventType,
          a.eventName,
          a.eventTime,
          a.emailSendId,
          a.clickedUrl,
          a.machine,
          a.engagementQuality,
          a.classificationReasons,
        ]),
        [
          ["custom", "saas.purchase", "2026-11-22T10:03:00.000Z", null, null, false, null, []],
          ["email.clicked", "Hello", "2026-11-22T10:02:00.000Z", first.id, "https://acme.example/pricing", false, "human", []],
          ["email.opened", "Hello", "2026-11-22T10:01:00.000Z", first.id, null, false, "human", []],
          ["email.opened", "Hello", NOW, first.id, null, true, "machine", ["head_request"]],
        ],
      );
      t.is(ann1.activity[1].id.slice(0, 4), "eev_");
      t.deepEqual(ann1.activityPagination, { limit: 50, nextCursor: null, hasMore: false });

      // Paged: a custom event at the very instant of the click sorts by ID (its `evt_` after `eev_`), and
      // walking pages of one gives the same events in the same order as one page, each once.
      await s.api.runtime.knex("custom_events").insert({
        id: "evt_same_instant",
        company_id: s.a.companyId,
        subscriber_id: ann.id,
        name: "viewed_pricing",
        properties: "{}",
        occurred_at: "2026-11-22T10:02:00.000Z",
        received_at: "2026-11-22T10:02:00.000Z",
      });
      const whole = (await detail()).activity.map((a: { id: string }) => a.id);
      t.is(whole.length, 5);
      t.is(whole[1], "evt_same_instant");
      const walked: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 10; page++) {
        const shown: { activity: Array<{ id: string }>; activityPagination: { limit: number; nextCursor: string | null; hasMore: boolean } } = await detail(
          `?activityLimit=2${cursor ? `&activityCursor=${cursor}` : ""}`,
        );
        walked.push(...shown.activity.map((a) => a.id));
        t.is(shown.activityPagination.limit, 2);
        t.is(shown.activityPagination.hasMore, shown.activityPagination.nextCursor !== null);
        cursor = shown.activityPagination.nextCursor;
        if (!cursor) break;
      }
      t.deepEqual(walked, whole);
      for (const query of ["?activityCursor=bm90LWEtY3Vyc29y", "?activityCursor=%25%25"]) {
        const refused = await s.api.call("GET", `/api/v1/subscribers/ann%40example.com${query}`, { key: s.a.ownerKey });
        t.deepEqual([refused.status, refused.body.error], [400, "activityCursor is not valid: start again without it"], query);
      }
      for (const limit of ["0", "101", "two"]) {
        const refused = await s.api.call("GET", `/api/v1/subscribers/ann%40example.com?activityLimit=${limit}`, { key: s.a.ownerKey });
        t.is(refused.status, 422, limit);
      }

      // With machine engagement, the scanner's open counts too; the first open is still one per send.
      t.like((await detail("?includeMachineEngagement=true")).emailStats, { opened: 1, clicked: 1, lastOpenedAt: "2026-11-22T10:01:00.000Z" });
      t.is(second.id === first.id, false);
      // Another contact of the company sees none of it.
      const bob = await s.api.call("GET", "/api/v1/subscribers/bob%40example.com", { key: s.a.ownerKey });
      t.like(bob.body.subscriber.emailStats, { sent: 1, opened: 0, clicked: 0, lastOpenedAt: null });
      t.deepEqual(bob.body.subscriber.activity, []);
    },
  );

  test(name("unsubscribe: the page asks, one-click POST unsubscribes the contact, suppresses the address, and is idempotent"), async (t) => {
    const s = await tracking(t, dialect);
    const ann = await s.contact(s.a, "ann@example.com");
    const send = await s.send(s.a, { subscriberId: ann.id, email: "ann@example.com" });
    t.regex(send.unsubscribeUrl, new RegExp(`^${BASE_URL}/u/[\\w-]+\\.[\\w-]+$`));
    t.is(send.rewriteLink(send.unsubscribeUrl), send.unsubscribeUrl, "the unsubscribe link is never a tracked click");

    const page = await s.fetch(send.unsubscribeUrl);
    t.is(page.status, 200);
    t.regex(page.headers.get("content-type") ?? "", /^text\/html/);
    t.is(page.headers.get("cache-control"), "no-store");
    const html = await page.text();
    t.true(html.includes("Acme &amp; Co &lt;Shop&gt;"), "the company's name, escaped");
    t.false(html.includes("<Shop>"));
    t.true(html.includes("ann@example.com"));
    t.regex(html, /<form method="post">/);
    t.regex(html, /name="List-Unsubscribe" value="One-Click"/);
    t.is((await s.contact(s.a, "ann@example.com")).status, "active", "showing the page changes nothing");
    t.is(await s.api.runtime.container.get<SuppressionRepository>(SuppressionRepository).find(s.a.companyId, "ann@example.com"), null);

    s.api.clock.advance(5_000);
    const oneClick = await s.fetch(send.unsubscribeUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    t.is(oneClick.status, 200);
    t.regex(await oneClick.text(), /You are unsubscribed/);

    const contact = await s.api.call("GET", "/api/v1/subscribers/ann%40example.com", { key: s.a.ownerKey });
    t.like(contact.body.subscriber, { status: "unsubscribed", unsubscribedAt: "2026-11-22T10:00:05.000Z" });
    const suppression = await s.api.runtime.container.get<SuppressionRepository>(SuppressionRepository).find(s.a.companyId, "ann@example.com");
    t.like(suppression, { reason: "unsubscribe", emailSendId: send.id, email: "ann@example.com" });
    t.is((await s.sendRow(send.id)).unsubscribed_at, "2026-11-22T10:00:05.000Z");

    // Again (a second click, a mail client retrying): same outcome, one event.
    s.api.clock.advance(5_000);
    const again = await s.fetch(send.unsubscribeUrl, { method: "POST" });
    t.is(again.status, 200);
    t.deepEqual(
      (await s.events(send.id)).map((e) => [e.type, e.at]),
      [["unsubscribe", "2026-11-22T10:00:05.000Z"]],
    );
    t.is((await s.sendRow(send.id)).unsubscribed_at, "2026-11-22T10:00:05.000Z");
    t.regex(await (await s.fetch(send.unsubscribeUrl)).text(), /You are unsubscribed/, "the page now says so");
  });

  test(name("unsubscribe: a forged or misused token gets a 404 page and changes nothing"), async (t) => {
    const s = await tracking(t, dialect);
    const ann = await s.contact(s.a, "ann@example.com");
    const send = await s.send(s.a, { subscriberId: ann.id });
    const pixelToken = send.openPixelUrl.split("/t/o/")[1]!.replace(/\.gif$/, "");
    for (const url of [tampered(send.unsubscribeUrl), `${s.api.server.url}/u/${pixelToken}`, `${s.api.server.url}/u/nothing`]) {
      for (const method of ["GET", "POST"]) {
        const response = await s.fetch(url, { method });
        t.is(response.status, 404, `${method} ${url}`);
        t.regex(await response.text(), /Link not found/);
      }
    }
    t.is((await s.contact(s.a, "ann@example.com")).status, "active");
    t.is(await s.api.runtime.container.get<SuppressionRepository>(SuppressionRepository).find(s.a.companyId, "ann@example.com"), null);
    t.deepEqual(await s.events(send.id), []);
  });

  test(name("tenancy: company A's tokens act on A's send and contact only, never on B's of the same address"), async (t) => {
    const s = await tracking(t, dialect);
    const annA = await s.contact(s.a, "ann@example.com");
    const annB = await s.contact(s.b, "ann@example.com");
    const sendA = await s.send(s.a, { subscriberId: annA.id });
    const sendB = await s.send(s.b, { subscriberId: annB.id });

    await s.fetch(sendA.openPixelUrl);
    await s.fetch(sendA.rewriteLink("https://shop.example/"));
    t.is((await s.fetch(sendA.unsubscribeUrl, { method: "POST" })).status, 200);

    t.deepEqual(
      (await s.events(sendA.id)).map((e) => e.companyId),
      [s.a.companyId, s.a.companyId, s.a.companyId],
    );
    t.deepEqual(await s.events(sendB.id), []);
    t.deepEqual(await s.sendRow(sendB.id), none);
    t.is((await s.contact(s.a, "ann@example.com")).status, "unsubscribed");
    t.is((await s.contact(s.b, "ann@example.com")).status, "active", "B's contact of the same address is untouched");
    const suppressions = s.api.runtime.container.get<SuppressionRepository>(SuppressionRepository);
    t.truthy(await suppressions.find(s.a.companyId, "ann@example.com"));
    t.is(await suppressions.find(s.b.companyId, "ann@example.com"), null);

    // A's token re-pointed at B's send does not verify.
    const [, mac] = sendA.unsubscribeUrl.split("/u/")[1]!.split(".");
    const forged = `${Buffer.from(JSON.stringify({ s: sendB.id })).toString("base64url")}.${mac}`;
    t.is((await s.fetch(`${s.api.server.url}/u/${forged}`, { method: "POST" })).status, 404);
    t.is((await s.contact(s.b, "ann@example.com")).status, "active");
  });
}
