import test, { type ExecutionContext } from "ava";
import { simpleParser } from "mailparser";
import { FinishCampaignSend } from "../../../core/campaigns/finish-campaign-send.js";
import type { CompanyFixture } from "../../../fixtures/companies.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { DAY, MINUTE, sequenceSession, type SequenceSession } from "../../helpers/sequence-session.js";
import { smtpSink, type Received } from "../../helpers/smtp-sink.js";

const HOUR = 60 * MINUTE;
/** The manual clock starts at 2026-11-22T10:00:00.000Z (a Sunday). */
const FIRST = "2026-11-22T11:00:00.000Z";

const DIGEST = {
  name: "Weekly digest",
  subject: "Digest for {{ firstName }}",
  blocks: [{ type: "text", content: "Hi {{ firstName }}, this week's digest." }],
  labels: ["digest"],
};

/** The manual clock and the real worker, run by hand, delivering through SMTP to a server on loopback. */
async function session(t: ExecutionContext, dialect: Dialect): Promise<{ s: SequenceSession; sink: { received: Received[] } }> {
  const sink = await smtpSink(t);
  const s = await sequenceSession(t, dialect, { mailUrl: `smtp://127.0.0.1:${sink.port}` });
  return { s, sink };
}

/** The subjects each address received through SMTP, parsed from the raw messages. */
async function inbox(sink: { received: Received[] }): Promise<Record<string, string[]>> {
  const byAddress: Record<string, string[]> = {};
  for (const message of sink.received) {
    const mail = await simpleParser(message.raw);
    for (const to of message.to) (byAddress[to] ??= []).push(mail.subject ?? "");
  }
  for (const subjects of Object.values(byAddress)) subjects.sort();
  return byAddress;
}

async function contact(s: SequenceSession, email: string, firstName: string, company?: CompanyFixture): Promise<void> {
  const made = await s.call("POST", "/api/v1/subscribers", { body: { email, firstName } }, company);
  if (made.status !== 200) throw new Error(JSON.stringify(made.body));
}

async function recurring(s: SequenceSession, schedule: Record<string, unknown>, body: Record<string, unknown> = {}): Promise<string> {
  const made = await s.call("POST", "/api/v1/campaigns", { body: { ...DIGEST, ...body } });
  if (made.status !== 200) throw new Error(JSON.stringify(made.body));
  const scheduled = await s.call("POST", `/api/v1/campaigns/${made.body.campaign.id}/schedule`, { body: schedule });
  if (scheduled.status !== 200) throw new Error(JSON.stringify(scheduled.body));
  return made.body.campaign.id;
}

const get = async (s: SequenceSession, id: string) => (await s.call("GET", `/api/v1/campaigns/${id}`)).body.campaign;

/** The company's campaigns, oldest first. */
async function campaigns(s: SequenceSession, company?: CompanyFixture) {
  const listed = await s.call("GET", "/api/v1/campaigns?limit=100", {}, company);
  return [...listed.body.campaigns].reverse();
}

/** Moves the manual clock to `iso` and runs what is due then. */
async function runAt(s: SequenceSession, iso: string): Promise<void> {
  s.api.clock.set(new Date(iso));
  await s.runJobs();
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: recurring campaigns ${title}`;

  test(
    name("weekly: each finished send schedules the next occurrence, with its own frozen audience, goals and stats; unschedule ends the series"),
    async (t) => {
      const { s, sink } = await session(t, dialect);
      await contact(s, "ann@example.com", "Ann");
      await contact(s, "bob@example.com", "Bob");
      await contact(s, "other@example.com", "Other", s.b);
      const first = await recurring(s, { scheduledAt: FIRST, recurringInterval: "weekly" });
      const goal = await s.call("POST", `/api/v1/campaigns/${first}/goals`, { body: { name: "Purchase", triggerEventName: "order_placed" } });
      t.is(goal.status, 200);
      t.like(await get(s, first), { status: "scheduled", recurringInterval: "weekly", previousOccurrenceId: null });

      await runAt(s, FIRST);
      t.deepEqual(await inbox(sink), { "ann@example.com": ["Digest for Ann"], "bob@example.com": ["Digest for Bob"] });
      t.like(await get(s, first), { status: "sent", sentAt: FIRST, recurringInterval: "weekly", progress: { recipients: 2, sent: 2 }, stats: { sent: 2 } });

      // The next occurrence: a campaign of its own, scheduled a week later, same content and settings.
      const [, second, ...more] = await campaigns(s);
      t.is(more.length, 0);
      t.like(second, { status: "scheduled", name: "Weekly digest", subject: "Digest for {{ firstName }}", scheduledAt: "2026-11-29T11:00:00.000Z" });
      const next = await get(s, second.id);
      t.like(next, { recurringInterval: "weekly", previousOccurrenceId: first, labels: ["digest"], progress: null, stats: { sent: 0 } });
      t.deepEqual(
        next.blocks.map((block: { content: string }) => block.content),
        ["Hi {{ firstName }}, this week's digest."],
      );
      const goals = (await s.call("GET", `/api/v1/campaigns/${second.id}/goals`)).body.goals;
      t.deepEqual(
        goals.map((g: { name: string; triggerEventName: string; campaignId: string }) => [g.name, g.triggerEventName, g.campaignId]),
        [["Purchase", "order_placed", second.id]],
      );
      t.not(goals[0].id, goal.body.goal.id, "the goal is copied, not shared");
      // Another company sees neither occurrence.
      t.is((await s.call("GET", `/api/v1/campaigns/${second.id}`, {}, s.b)).status, 404);
      t.is((await campaigns(s, s.b)).length, 0);

      // The audience is frozen per occurrence: a contact added after the first send gets the second.
      await contact(s, "cat@example.com", "Cat");
      await runAt(s, "2026-11-29T10:59:59.999Z");
      t.is(sink.received.length, 2, "nothing before the occurrence's time");
      await runAt(s, "2026-11-29T11:00:00.000Z");
      t.deepEqual(await inbox(sink), {
        "ann@example.com": ["Digest for Ann", "Digest for Ann"],
        "bob@example.com": ["Digest for Bob", "Digest for Bob"],
        "cat@example.com": ["Digest for Cat"],
      });
      t.like(await get(s, second.id), { status: "sent", progress: { recipients: 3, sent: 3 }, stats: { sent: 3 } });
      t.like(await get(s, first), { stats: { sent: 2 } }, "each occurrence keeps its own stats");

      // Unscheduling the third occurrence ends the series: back to draft, recurrence removed, nothing more.
      const third = (await campaigns(s))[2];
      t.like(third, { status: "scheduled", scheduledAt: "2026-12-06T11:00:00.000Z" });
      t.like(await get(s, third.id), { previousOccurrenceId: second.id });
      const unscheduled = await s.call("POST", `/api/v1/campaigns/${third.id}/unschedule`);
      t.is(unscheduled.status, 200);
      t.like(unscheduled.body.campaign, { status: "draft", scheduledAt: null, recurringInterval: null });
      await runAt(s, "2026-12-06T11:00:00.000Z");
      await runAt(s, "2026-12-13T11:00:00.000Z");
      t.is(sink.received.length, 5);
      t.deepEqual(
        (await campaigns(s)).map((c: { status: string }) => c.status),
        ["sent", "sent", "draft"],
      );
    },
  );

  test(name("a finish handled twice makes one next occurrence; a late send skips the dates it missed"), async (t) => {
    const { s, sink } = await session(t, dialect);
    await contact(s, "ann@example.com", "Ann");
    const first = await recurring(s, { scheduledAt: FIRST, recurringInterval: "weekly" });
    // The worker was down for ten days: the first send starts late, and the next date is the first still ahead.
    await runAt(s, "2026-12-02T09:00:00.000Z");
    t.like(await get(s, first), { status: "sent" });
    const finish = s.api.runtime.container.get(FinishCampaignSend);
    await finish.runJob({ companyId: s.a.companyId, payload: { campaignId: first, check: 0 } });
    await finish.runJob({ companyId: s.a.companyId, payload: { campaignId: first, check: 7 } });
    const all = await campaigns(s);
    t.is(all.length, 2);
    t.like(all[1], { status: "scheduled", scheduledAt: "2026-12-06T11:00:00.000Z" });
    t.is(sink.received.length, 1);
  });

  test(name("monthly in a timezone: the anchor's day and wall-clock time; cancelling the scheduled occurrence ends the series"), async (t) => {
    const { s, sink } = await session(t, dialect);
    await contact(s, "ann@example.com", "Ann");
    // 31 January 2027, 09:00 in Paris.
    const first = await recurring(s, { scheduledAt: "2027-01-31T08:00:00.000Z", scheduledTimezone: "Europe/Paris", recurringInterval: "monthly" });
    await runAt(s, "2027-01-31T08:00:00.000Z");
    let all = await campaigns(s);
    t.like(all[1], { status: "scheduled", scheduledAt: "2027-02-28T08:00:00.000Z", scheduledTimezone: "Europe/Paris" });
    await runAt(s, "2027-02-28T08:00:00.000Z");
    all = await campaigns(s);
    // 31 March, 09:00 in Paris: summer time by then.
    t.like(all[2], { status: "scheduled", scheduledAt: "2027-03-31T07:00:00.000Z", recurringInterval: "monthly" });
    t.is((await s.call("POST", `/api/v1/campaigns/${all[2].id}/cancel`, {}, s.b)).status, 404, "another company cannot cancel it");
    const cancelled = await s.call("POST", `/api/v1/campaigns/${all[2].id}/cancel`);
    t.is(cancelled.status, 200);
    t.is(cancelled.body.campaign.status, "cancelled");
    await runAt(s, "2027-03-31T07:00:00.000Z");
    await runAt(s, "2027-05-01T00:00:00.000Z");
    t.is((await campaigns(s)).length, 3);
    t.deepEqual(await inbox(sink), { "ann@example.com": ["Digest for Ann", "Digest for Ann"] });
    t.like(await get(s, first), { status: "sent" });
  });

  test(name("cancelling an occurrence while it sends ends the series; a one-off campaign makes no occurrence"), async (t) => {
    const { s, sink } = await session(t, dialect);
    for (const [email, first] of [
      ["ann@example.com", "Ann"],
      ["bob@example.com", "Bob"],
      ["cat@example.com", "Cat"],
    ]) {
      await contact(s, email!, first!);
    }
    // Spread over an hour: one recipient a batch, 30 minutes apart.
    const spread = await recurring(s, { scheduledAt: FIRST, recurringInterval: "weekly", spreadOverHours: 1 });
    await runAt(s, FIRST);
    t.like(await get(s, spread), { status: "sending" });
    t.is((await s.call("POST", `/api/v1/campaigns/${spread}/cancel`)).status, 200);
    s.api.clock.advance(2 * HOUR);
    await s.runJobs();
    t.is(sink.received.length, 1);
    t.is((await campaigns(s)).length, 1);

    const once = await recurring(s, { scheduledAt: "2026-11-22T13:00:00.000Z" });
    await runAt(s, "2026-11-22T13:00:00.000Z");
    t.like(await get(s, once), { status: "sent", recurringInterval: null });
    s.api.clock.advance(8 * DAY);
    await s.runJobs();
    t.is((await campaigns(s)).length, 2);
    t.is(sink.received.length, 4);
  });

  test(name("recurringInterval is weekly or monthly, and not with sendInRecipientTimezone; a refused schedule changes nothing"), async (t) => {
    const { s } = await session(t, dialect);
    const made = await s.call("POST", "/api/v1/campaigns", { body: DIGEST });
    const id = made.body.campaign.id;
    const daily = await s.call("POST", `/api/v1/campaigns/${id}/schedule`, { body: { scheduledAt: FIRST, recurringInterval: "daily" } });
    t.is(daily.status, 422);
    t.like(daily.body, { success: false });
    t.true(daily.body.errors.some((e: { path: string }) => e.path.includes("recurringInterval")));
    const zoned = await s.call("POST", `/api/v1/campaigns/${id}/schedule`, {
      body: { scheduledAt: FIRST, recurringInterval: "weekly", sendInRecipientTimezone: true, scheduledTimezone: "Europe/Paris" },
    });
    t.is(zoned.status, 400);
    t.like(await get(s, id), { status: "draft", recurringInterval: null, scheduledAt: null });
  });
}
