import test, { type ExecutionContext } from "ava";
import { toDbDate } from "../../../adapters/knex/row-codecs.js";
import { DeliverEmail } from "../../../core/delivery/deliver-email.js";
import { QueueEmailSend, type QueueEmailSendInput } from "../../../core/delivery/queue-email-send.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";
import { pacedCaller } from "../../helpers/paced-caller.js";

const NOW = Date.parse("2026-11-22T10:00:00.000Z");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW - ms);

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const api = await apiFixture(t, dialect);
  const company = await createCompanyFixture(api.runtime.container);
  return { api, company, call: await pacedCaller(api, company) };
}

interface SeedSend {
  readonly id: string;
  readonly createdAt: Date;
  readonly status?: string;
  readonly emailType?: "campaign" | "transactional" | "sequence";
  readonly sendKind?: "transactional" | "marketing" | null;
  readonly subject?: string;
  readonly recipient?: string;
  readonly subscriberId?: string | null;
  readonly campaignId?: string | null;
  readonly transactionalEmailId?: string | null;
  readonly automationId?: string | null;
  readonly automationNodeId?: string | null;
  readonly sentAt?: Date | null;
  readonly deliveredAt?: Date | null;
  readonly openedAt?: Date | null;
  readonly clickedAt?: Date | null;
  readonly bounceType?: string | null;
  readonly bouncedAt?: Date | null;
  readonly complainedAt?: Date | null;
  readonly suppressedAt?: Date | null;
  readonly suppressionReason?: string | null;
  readonly failureReason?: string | null;
  readonly html?: string | null;
  readonly payload?: unknown;
}

/** An email_sends row as delivery and tracking leave it. */
async function seed(api: ApiFixture, companyId: string, send: SeedSend): Promise<void> {
  await api.runtime.knex("email_sends").insert({
    id: send.id,
    company_id: companyId,
    subscriber_id: send.subscriberId ?? null,
    recipient_email: send.recipient ?? `${send.id}@example.com`,
    email_type: send.emailType ?? "campaign",
    send_kind: send.sendKind ?? null,
    transactional_email_id: send.transactionalEmailId ?? null,
    campaign_id: send.campaignId ?? null,
    automation_id: send.automationId ?? null,
    automation_node_id: send.automationNodeId ?? null,
    subject: send.subject ?? "Hello",
    sender_email: "news@brand.example",
    sender_name: "Brand",
    status: send.status ?? "sent",
    suppression_reason: send.suppressionReason ?? null,
    failure_reason: send.failureReason ?? null,
    mailbox_provider: "other",
    payload: send.payload === undefined ? null : JSON.stringify(send.payload),
    sent_at: toDbDate(send.sentAt === undefined ? send.createdAt : send.sentAt),
    delivered_at: toDbDate(send.deliveredAt ?? null),
    first_opened_at: toDbDate(send.openedAt ?? null),
    first_human_opened_at: toDbDate(send.openedAt ?? null),
    first_clicked_at: toDbDate(send.clickedAt ?? null),
    first_human_clicked_at: toDbDate(send.clickedAt ?? null),
    bounce_type: send.bounceType ?? null,
    bounced_at: toDbDate(send.bouncedAt ?? null),
    complained_at: toDbDate(send.complainedAt ?? null),
    suppressed_at: toDbDate(send.suppressedAt ?? null),
    created_at: toDbDate(send.createdAt),
    updated_at: toDbDate(send.createdAt),
  });
  const html = send.html === undefined ? "<p>Hello</p>" : send.html;
  if (html !== null) await api.runtime.knex("email_send_contents").insert({ email_send_id: send.id, created_at: toDbDate(send.createdAt), html });
}

/** Ten sends of the last fortnight covering every status, type and link, plus one too old to show. */
async function seedFortnight(api: ApiFixture, companyId: string): Promise<void> {
  const sends: SeedSend[] = [
    {
      id: "send_a_pending",
      createdAt: ago(10 * MINUTE),
      status: "pending",
      sentAt: null,
      emailType: "transactional",
      sendKind: "transactional",
      subject: "Your receipt",
      recipient: "erin@shop.example",
    },
    {
      id: "send_b_reset",
      createdAt: ago(1 * HOUR),
      status: "delivered",
      emailType: "transactional",
      sendKind: "transactional",
      subject: "Password reset",
      recipient: "ann@example.com",
      subscriberId: "sub_ann",
      transactionalEmailId: "txe_reset",
      deliveredAt: ago(1 * HOUR - MINUTE),
    },
    {
      id: "send_c_opened",
      createdAt: ago(2 * HOUR),
      status: "delivered",
      subject: "Weekly NEWS 50%_off",
      recipient: "bob@example.com",
      campaignId: "camp_weekly",
      deliveredAt: ago(2 * HOUR - MINUTE),
      openedAt: ago(30 * MINUTE),
    },
    {
      id: "send_d_clicked",
      createdAt: ago(3 * HOUR),
      status: "delivered",
      subject: "Weekly news",
      recipient: "carol@example.com",
      campaignId: "camp_weekly",
      deliveredAt: ago(3 * HOUR - MINUTE),
      openedAt: ago(2 * HOUR),
      clickedAt: ago(90 * MINUTE),
    },
    {
      id: "send_e_hard",
      createdAt: ago(1 * DAY),
      status: "bounced",
      emailType: "sequence",
      subject: "Welcome aboard",
      recipient: "dave@bounce.example",
      automationId: "auto_welcome",
      automationNodeId: "node_1",
      bounceType: "Permanent",
      bouncedAt: ago(1 * DAY - MINUTE),
    },
    {
      id: "send_f_soft",
      createdAt: ago(2 * DAY),
      status: "bounced",
      emailType: "sequence",
      subject: "Welcome aboard",
      recipient: "fay@bounce.example",
      automationId: "auto_welcome",
      automationNodeId: "node_2",
      bounceType: "Transient",
      bouncedAt: ago(2 * DAY - MINUTE),
    },
    {
      id: "send_g_sent",
      createdAt: ago(5 * DAY),
      status: "sent",
      emailType: "transactional",
      sendKind: "marketing",
      subject: "A note from us",
      recipient: "gus@example.com",
    },
    {
      id: "send_h_failed",
      createdAt: ago(6 * DAY),
      status: "failed",
      sentAt: null,
      subject: "Weekly news",
      recipient: "hal@example.com",
      failureReason: "550 mailbox unavailable",
    },
    {
      id: "send_i_complained",
      createdAt: ago(7 * DAY),
      status: "complained",
      subject: "Weekly news",
      recipient: "ida@example.com",
      deliveredAt: ago(7 * DAY - MINUTE),
      complainedAt: ago(6 * DAY),
    },
    {
      id: "send_j_suppressed",
      createdAt: ago(8 * DAY),
      status: "suppressed",
      sentAt: null,
      subject: "Weekly news",
      recipient: "jo@example.com",
      suppressionReason: "unsubscribe",
      suppressedAt: ago(8 * DAY),
    },
    { id: "send_k_old", createdAt: ago(15 * DAY), status: "delivered", subject: "Password reset", recipient: "ann@example.com" },
  ];
  for (const send of sends) await seed(api, companyId, send);
}

const ids = (response: JsonResponse): string[] => {
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.emailSends.map((send: { id: string }) => send.id);
};

const RECENT_FIRST = [
  "send_a_pending",
  "send_b_reset",
  "send_c_opened",
  "send_d_clicked",
  "send_e_hard",
  "send_f_soft",
  "send_g_sent",
  "send_h_failed",
  "send_i_complained",
  "send_j_suppressed",
];

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("the list shows the last 14 days newest first with the shown status, in pages"), async (t) => {
    const s = await session(t, dialect);
    await seedFortnight(s.api, s.company.companyId);
    const other = await createCompanyFixture(s.api.runtime.container);
    await seed(s.api, other.companyId, { id: "send_z_other", createdAt: ago(5 * MINUTE), subject: "Password reset", recipient: "ann@example.com" });

    const listed = await s.call("GET", "/api/v1/email-sends?limit=20");
    t.is(listed.status, 200);
    t.deepEqual(ids(listed), RECENT_FIRST, "the 15-day-old send and the other company's send are not listed");
    t.is(listed.body.success, true);
    t.is(listed.body.retentionDays, 14);
    t.deepEqual(listed.body.pagination, { page: 1, limit: 20, total: 10, totalPages: 1 });
    t.deepEqual(
      listed.body.emailSends.map((send: { status: string }) => send.status),
      ["pending", "delivered", "opened", "clicked", "bounced", "bounced", "sent", "failed", "complained", "suppressed"],
    );
    t.deepEqual(listed.body.emailSends[1], {
      id: "send_b_reset",
      status: "delivered",
      recipientEmail: "ann@example.com",
      subject: "Password reset",
      subscriberId: "sub_ann",
      automationNodeId: null,
      abTestVariantId: null,
      sentAt: "2026-11-22T09:00:00.000Z",
      deliveredAt: "2026-11-22T09:01:00.000Z",
      openedAt: null,
      clickedAt: null,
      createdAt: "2026-11-22T09:00:00.000Z",
      emailType: "transactional",
      transactionalEmailId: "txe_reset",
      heldAt: null,
    });
    const clicked = listed.body.emailSends[3];
    t.deepEqual([clicked.openedAt, clicked.clickedAt], ["2026-11-22T08:00:00.000Z", "2026-11-22T08:30:00.000Z"]);
    t.is(listed.body.emailSends[4].automationNodeId, "node_1");

    // Also under /v1, with the default page size of 20.
    const alias = await s.call("GET", "/v1/email-sends");
    t.deepEqual([alias.status, alias.body.pagination.limit], [200, 20]);

    const second = await s.call("GET", "/api/v1/email-sends?limit=3&page=2");
    t.deepEqual(ids(second), RECENT_FIRST.slice(3, 6));
    t.deepEqual(second.body.pagination, { page: 2, limit: 3, total: 10, totalPages: 4 });
    const last = await s.call("GET", "/api/v1/email-sends?limit=3&page=4");
    t.deepEqual(ids(last), ["send_j_suppressed"]);
    const beyond = await s.call("GET", "/api/v1/email-sends?limit=3&page=5");
    t.deepEqual([ids(beyond), beyond.body.pagination], [[], { page: 5, limit: 3, total: 10, totalPages: 4 }]);

    const empty = await createCompanyFixture(s.api.runtime.container);
    const none = await s.api.call("GET", "/api/v1/email-sends", { key: empty.ownerKey });
    t.deepEqual(none.body, { success: true, retentionDays: 14, emailSends: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
  });

  test(name("each filter narrows the list"), async (t) => {
    const s = await session(t, dialect);
    await seedFortnight(s.api, s.company.companyId);
    const list = async (query: string) => ids(await s.call("GET", `/api/v1/email-sends?${query}`));

    // search: subject or recipient, case-insensitive, wildcards taken literally.
    t.deepEqual(await list("search=RESET"), ["send_b_reset"]);
    t.deepEqual(await list("search=bounce.EXAMPLE"), ["send_e_hard", "send_f_soft"]);
    t.deepEqual(await list("search=weekly"), ["send_c_opened", "send_d_clicked", "send_h_failed", "send_i_complained", "send_j_suppressed"]);
    t.deepEqual(await list(`search=${encodeURIComponent("50%_off")}`), ["send_c_opened"]);
    t.deepEqual(await list(`search=${encodeURIComponent("%")}`), ["send_c_opened"], "% is a character, not a wildcard");
    t.deepEqual(await list("search=%20%20"), RECENT_FIRST, "a blank search is no filter");
    t.deepEqual(await list("subject=welcome"), ["send_e_hard", "send_f_soft"]);
    t.deepEqual(await list("subject=example"), [], "subject does not look at the recipient");
    t.deepEqual(await list("recipient=ANN@"), ["send_b_reset"]);
    t.deepEqual(await list("recipient=reset"), [], "recipient does not look at the subject");
    t.deepEqual(await list("subject=weekly&recipient=bob"), ["send_c_opened"], "filters combine");

    // status: the shown status; opened includes clicked.
    t.deepEqual(await list("status=pending"), ["send_a_pending"]);
    t.deepEqual(await list("status=sent"), ["send_g_sent"]);
    t.deepEqual(await list("status=delivered"), ["send_b_reset"], "opened and clicked sends show as such");
    t.deepEqual(await list("status=opened"), ["send_c_opened", "send_d_clicked"]);
    t.deepEqual(await list("status=clicked"), ["send_d_clicked"]);
    t.deepEqual(await list("status=bounced"), ["send_e_hard", "send_f_soft"]);
    t.deepEqual(await list("status=complained"), ["send_i_complained"]);
    t.deepEqual(await list("status=failed"), ["send_h_failed"]);
    t.deepEqual(await list("status=suppressed"), ["send_j_suppressed"]);

    t.deepEqual(await list("emailType=transactional"), ["send_a_pending", "send_b_reset", "send_g_sent"]);
    t.deepEqual(await list("emailType=sequence"), ["send_e_hard", "send_f_soft"]);
    t.deepEqual(await list("emailType=campaign"), ["send_c_opened", "send_d_clicked", "send_h_failed", "send_i_complained", "send_j_suppressed"]);
    t.deepEqual(await list("bounceType=Permanent"), ["send_e_hard"]);
    t.deepEqual(await list("bounceType=Transient"), ["send_f_soft"]);
    t.deepEqual(await list("campaignId=camp_weekly"), ["send_c_opened", "send_d_clicked"]);
    t.deepEqual(await list("transactionalEmailId=txe_reset"), ["send_b_reset"]);
    t.deepEqual(await list("automationId=auto_welcome"), ["send_e_hard", "send_f_soft"]);
    t.deepEqual(await list("automationNodeId=node_2"), ["send_f_soft"]);
    t.deepEqual(await list("campaignId=camp_other"), []);

    const counted = await s.call("GET", "/api/v1/email-sends?status=opened&limit=1");
    t.deepEqual(
      [ids(counted), counted.body.pagination],
      [["send_c_opened"], { page: 1, limit: 1, total: 2, totalPages: 2 }],
      "the total counts the filtered sends",
    );
  });

  test(name("days narrows the window to the last N days, measured from the current time"), async (t) => {
    const s = await session(t, dialect);
    await seedFortnight(s.api, s.company.companyId);
    const list = async (query: string) => ids(await s.call("GET", `/api/v1/email-sends?${query}`));

    t.deepEqual(await list("days=1"), RECENT_FIRST.slice(0, 5), "created within the last 24 hours, the boundary included");
    t.deepEqual(await list("days=2"), RECENT_FIRST.slice(0, 6));
    t.deepEqual(await list("days=7"), RECENT_FIRST.slice(0, 9));
    t.deepEqual(await list("days=14"), RECENT_FIRST);

    s.api.clock.advance(23 * HOUR);
    t.deepEqual(await list("days=1"), ["send_a_pending", "send_b_reset"], "sends of the first hour before the old now are still within a day");
    t.deepEqual(await list("days=14&status=suppressed"), ["send_j_suppressed"]);
    s.api.clock.advance(6 * DAY);
    t.deepEqual(await list(""), RECENT_FIRST.slice(0, 9), "the suppressed send left the 14-day window");
  });

  test(name("sortField and sortOrder order the list; ties and missing times stay stable"), async (t) => {
    const s = await session(t, dialect);
    await seedFortnight(s.api, s.company.companyId);
    const list = async (query: string) => ids(await s.call("GET", `/api/v1/email-sends?${query}`));

    t.deepEqual(await list("sortOrder=asc"), [...RECENT_FIRST].reverse());
    t.deepEqual(await list("sortField=createdAt&sortOrder=desc"), RECENT_FIRST);
    t.deepEqual(await list("sortField=recipientEmail&sortOrder=asc"), [
      "send_b_reset", // ann
      "send_c_opened", // bob
      "send_d_clicked", // carol
      "send_e_hard", // dave
      "send_a_pending", // erin
      "send_f_soft", // fay
      "send_g_sent", // gus
      "send_h_failed", // hal
      "send_i_complained", // ida
      "send_j_suppressed", // jo
    ]);
    // Equal subjects are ordered by ID in the same direction.
    t.deepEqual(await list("sortField=subject&sortOrder=asc"), [
      "send_g_sent", // A note from us
      "send_b_reset", // Password reset
      "send_d_clicked", // Weekly news
      "send_h_failed",
      "send_i_complained",
      "send_j_suppressed",
      "send_c_opened", // Weekly NEWS 50%_off (longer, so after)
      "send_e_hard", // Welcome aboard
      "send_f_soft",
      "send_a_pending", // Your receipt
    ]);
    t.deepEqual(await list("sortField=status&sortOrder=asc"), [
      "send_e_hard", // bounced
      "send_f_soft",
      "send_d_clicked", // clicked
      "send_i_complained", // complained
      "send_b_reset", // delivered
      "send_h_failed", // failed
      "send_c_opened", // opened
      "send_a_pending", // pending
      "send_g_sent", // sent
      "send_j_suppressed", // suppressed
    ]);
    // Never-sent sends (pending, failed, suppressed) come last in both directions.
    t.deepEqual(await list("sortField=sentAt&sortOrder=desc"), [
      "send_b_reset",
      "send_c_opened",
      "send_d_clicked",
      "send_e_hard",
      "send_f_soft",
      "send_g_sent",
      "send_i_complained",
      "send_j_suppressed",
      "send_h_failed",
      "send_a_pending",
    ]);
    t.deepEqual(await list("sortField=sentAt&sortOrder=asc"), [
      "send_i_complained",
      "send_g_sent",
      "send_f_soft",
      "send_e_hard",
      "send_d_clicked",
      "send_c_opened",
      "send_b_reset",
      "send_a_pending",
      "send_h_failed",
      "send_j_suppressed",
    ]);
    // eventAt: the latest thing that happened to the send; equal times fall back to the ID.
    t.deepEqual(await list("sortField=eventAt&sortOrder=desc"), [
      "send_a_pending", // created 10 min ago
      "send_c_opened", // opened 30 min ago
      "send_b_reset", // delivered 59 min ago
      "send_d_clicked", // clicked 90 min ago
      "send_e_hard", // bounced 1 day - 1 min ago
      "send_f_soft", // bounced 2 days - 1 min ago
      "send_g_sent", // sent 5 days ago
      "send_i_complained", // complained 6 days ago (created 7)
      "send_h_failed", // created 6 days ago, nothing since
      "send_j_suppressed", // 8 days ago
    ]);
  });

  test(name("invalid query values are refused with 422 and say what is wrong"), async (t) => {
    const s = await session(t, dialect);
    const cases: Array<[string, string, string]> = [
      ["days=15", "days", "must be between 1 and 14"],
      ["days=0", "days", "must be between 1 and 14"],
      ["days=week", "days", "must be an integer"],
      ["limit=101", "limit", "must be between 1 and 100"],
      ["limit=0", "limit", "must be between 1 and 100"],
      ["page=0", "page", "must be between 1 and 1000000"],
      ["status=opening", "status", "must be one of: pending, sent, delivered, opened, clicked, bounced, complained, failed, suppressed"],
      ["emailType=marketing", "emailType", "must be one of: campaign, transactional, sequence"],
      ["bounceType=permanent", "bounceType", "must be one of: Permanent, Transient"],
      ["sortField=updatedAt", "sortField", "must be one of: recipientEmail, subject, status, eventAt, sentAt, createdAt"],
      ["sortOrder=up", "sortOrder", "must be one of: asc, desc"],
    ];
    for (const [query, path, message] of cases) {
      const response = await s.call("GET", `/api/v1/email-sends?${query}`);
      t.is(response.status, 422, query);
      t.deepEqual(response.body, { success: false, error: `Invalid request: ${path} ${message}`, errors: [{ path, message }] }, query);
    }
  });

  test(name("one send in full with its events in time order; machine opens are flagged; cc copies name their primary"), async (t) => {
    const s = await session(t, dialect);
    const container = s.api.runtime.container;
    const queue = container.get(QueueEmailSend);
    const input = (overrides: Partial<QueueEmailSendInput>): QueueEmailSendInput => ({
      companyId: s.company.companyId,
      recipient: "Reader@Example.org",
      emailType: "transactional",
      sendKind: "transactional",
      subject: "Your order shipped",
      html: "<p>It shipped</p>",
      text: "It shipped",
      sender: { email: "orders@brand.example", name: "Brand Orders" },
      replyTo: "support@brand.example",
      ...overrides,
    });
    const primary = await queue.execute(input({ transactionalEmailId: "txe_shipped" }));
    if (primary._tag === "Left") throw new Error(primary.left.message);
    const copy = await queue.execute(input({ recipient: "boss@example.org", copyOf: { emailSendId: primary.right.id, role: "cc" } }));
    if (copy._tag === "Left") throw new Error(copy.left.message);

    s.api.clock.advance(MINUTE);
    t.is(await container.get(DeliverEmail).execute(s.company.companyId, primary.right.id), "sent");
    const [sendEvent] = await s.api.runtime.knex("email_events").where({ email_send_id: primary.right.id });
    // Delivery, a scanner's open, the reader's open and a click, recorded out of order.
    const event = (id: string, type: string, at: Date, machine = false) => ({
      id,
      company_id: s.company.companyId,
      email_send_id: primary.right.id,
      event_type: type,
      event_time: toDbDate(at),
      machine,
      created_at: toDbDate(at),
    });
    const t0 = NOW + MINUTE;
    await s.api.runtime
      .knex("email_events")
      .insert([
        event("eev_click", "click", new Date(t0 + 10 * MINUTE)),
        event("eev_delivery", "delivery", new Date(t0 + 1000)),
        event("eev_open_scanner", "open", new Date(t0 + 2000), true),
        event("eev_open_reader", "open", new Date(t0 + 5 * MINUTE)),
      ]);
    await s.api.runtime
      .knex("email_sends")
      .where({ id: primary.right.id })
      .update({
        status: "delivered",
        delivered_at: toDbDate(new Date(t0 + 1000)),
        first_opened_at: toDbDate(new Date(t0 + 2000)),
        first_human_opened_at: toDbDate(new Date(t0 + 5 * MINUTE)),
        first_clicked_at: toDbDate(new Date(t0 + 10 * MINUTE)),
        first_human_clicked_at: toDbDate(new Date(t0 + 10 * MINUTE)),
      });

    const shown = await s.call("GET", `/api/v1/email-sends/${primary.right.id}`);
    t.is(shown.status, 200);
    t.deepEqual(shown.body, {
      success: true,
      source: "database",
      emailSend: {
        id: primary.right.id,
        companyId: s.company.companyId,
        type: "transactional",
        emailType: "transactional",
        recipientEmail: "reader@example.org",
        subject: "Your order shipped",
        senderEmail: "orders@brand.example",
        senderName: "Brand Orders",
        status: "clicked",
        suppressionReason: null,
        emailBody: "<p>It shipped</p>",
        replyTo: "support@brand.example",
        copiedFrom: null,
        failureReason: null,
        sentAt: "2026-11-22T10:01:00.000Z",
        deliveredAt: "2026-11-22T10:01:01.000Z",
        suppressedAt: null,
        heldAt: null,
        createdAt: "2026-11-22T10:00:00.000Z",
      },
      events: [
        { id: sendEvent.id, emailSendId: primary.right.id, eventType: "send", eventTime: "2026-11-22T10:01:00.000Z", deliveryPolicy: null },
        { id: "eev_delivery", emailSendId: primary.right.id, eventType: "delivery", eventTime: "2026-11-22T10:01:01.000Z", deliveryPolicy: null },
        {
          id: "eev_open_scanner",
          emailSendId: primary.right.id,
          eventType: "open",
          eventTime: "2026-11-22T10:01:02.000Z",
          deliveryPolicy: null,
          machine: true,
        },
        {
          id: "eev_open_reader",
          emailSendId: primary.right.id,
          eventType: "open",
          eventTime: "2026-11-22T10:06:00.000Z",
          deliveryPolicy: null,
          machine: false,
        },
        { id: "eev_click", emailSendId: primary.right.id, eventType: "click", eventTime: "2026-11-22T10:11:00.000Z", deliveryPolicy: null, machine: false },
      ],
    });

    // The cc copy: still pending, no events, pointing at the primary.
    const copied = await s.call("GET", `/v1/email-sends/${copy.right.id}`);
    t.is(copied.status, 200);
    t.deepEqual(copied.body.emailSend.copiedFrom, { emailSendId: primary.right.id, role: "cc" });
    t.deepEqual(
      [copied.body.emailSend.status, copied.body.emailSend.recipientEmail, copied.body.emailSend.sentAt, copied.body.events],
      ["pending", "boss@example.org", null, []],
    );

    // In the list too, with the same shown status.
    const listed = await s.call("GET", "/api/v1/email-sends?transactionalEmailId=txe_shipped");
    t.deepEqual(
      listed.body.emailSends.map((send: { id: string; status: string }) => [send.id, send.status]),
      [[primary.right.id, "clicked"]],
    );
  });

  test(name("an expired body is left out; marketing, failed and suppressed sends say why"), async (t) => {
    const s = await session(t, dialect);
    await seed(s.api, s.company.companyId, {
      id: "send_expired",
      createdAt: ago(DAY),
      html: null,
      emailType: "campaign",
      status: "delivered",
      deliveredAt: ago(DAY - MINUTE),
    });
    await seed(s.api, s.company.companyId, {
      id: "send_failed",
      createdAt: ago(HOUR),
      sentAt: null,
      status: "failed",
      emailType: "transactional",
      sendKind: "marketing",
      failureReason: "550 no such user",
    });
    await seed(s.api, s.company.companyId, {
      id: "send_blocked",
      createdAt: ago(HOUR),
      sentAt: null,
      status: "suppressed",
      emailType: "sequence",
      suppressionReason: "hard_bounce",
      suppressedAt: ago(HOUR),
      payload: { copyOf: "send_primary", copyRole: "bcc" },
    });

    const expired = (await s.call("GET", "/api/v1/email-sends/send_expired")).body.emailSend;
    t.false("emailBody" in expired);
    t.deepEqual([expired.type, expired.emailType, expired.status, expired.deliveredAt], ["marketing", "campaign", "delivered", "2026-11-21T10:01:00.000Z"]);

    const failed = (await s.call("GET", "/api/v1/email-sends/send_failed")).body.emailSend;
    t.deepEqual(
      [failed.type, failed.emailType, failed.status, failed.failureReason, failed.sentAt],
      ["marketing", "transactional", "failed", "550 no such user", null],
    );

    const blocked = (await s.call("GET", "/api/v1/email-sends/send_blocked")).body.emailSend;
    t.deepEqual(
      [blocked.status, blocked.suppressionReason, blocked.suppressedAt, blocked.copiedFrom],
      ["suppressed", "hard_bounce", "2026-11-22T09:00:00.000Z", { emailSendId: "send_primary", role: "bcc" }],
    );
  });

  test(name("another company's send is not found, and reading sends takes the email_sends:read scope"), async (t) => {
    const s = await session(t, dialect);
    await seed(s.api, s.company.companyId, { id: "send_mine", createdAt: ago(HOUR), subject: "Private" });
    const other = await createCompanyFixture(s.api.runtime.container);

    const foreign = await s.api.call("GET", "/api/v1/email-sends/send_mine", { key: other.ownerKey });
    t.deepEqual([foreign.status, foreign.body], [404, { success: false, error: "Email send not found" }]);
    const unknown = await s.call("GET", "/api/v1/email-sends/send_nope");
    t.deepEqual([unknown.status, unknown.body], [404, { success: false, error: "Email send not found" }]);
    const searched = await s.api.call("GET", "/api/v1/email-sends?search=private", { key: other.ownerKey });
    t.deepEqual([searched.status, searched.body.emailSends], [200, []]);

    const noScope = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, {
      role: "owner",
      email: s.company.ownerEmail,
      scopes: ["account:read", "emails:read"],
    });
    for (const path of ["/api/v1/email-sends", "/api/v1/email-sends/send_mine"]) {
      const refused = await s.api.call("GET", path, { key: noScope.key });
      t.deepEqual([refused.status, refused.body.success, refused.body.error], [403, false, "API key is missing required scope: email_sends:read"], path);
    }

    const reader = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, { role: "marketer", scopes: ["email_sends:read"] });
    const allowed = await s.api.call("GET", "/api/v1/email-sends/send_mine", { key: reader.key });
    t.deepEqual([allowed.status, allowed.body.emailSend.subject], [200, "Private"]);
    t.deepEqual(ids(await s.api.call("GET", "/api/v1/email-sends", { key: reader.key })), ["send_mine"]);

    const anonymous = await s.api.call("GET", "/api/v1/email-sends");
    t.is(anonymous.status, 401);
  });
}
