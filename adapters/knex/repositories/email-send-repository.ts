import * as t from "io-ts";
import type { Knex } from "knex";
import {
  EMAIL_TYPES,
  EVENT_TYPE_OF,
  MAILBOX_PROVIDERS,
  SEND_KINDS,
  SEND_STATUSES,
  type DeliveryEvent,
  type DeliveryEventType,
  type EmailSend,
  type EmailSendWithoutBodies,
  type EmailType,
  type MailboxProvider,
  type SendBodies,
  type SendKind,
  type SendStatus,
} from "../../../core/delivery/model.js";
import type { DeliveryJob, EmailSendRepository, NewEmailSend, SendOutcomeEvent } from "../../../core/delivery/ports.js";
import { statusChangesOn } from "../../../core/email-sends/status-on-delivery-event.js";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import { chunksOf } from "../../../core/shared/chunks.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { isPostgres } from "../connection.js";
import { GroupCommit } from "../group-commit.js";
import { announceJobs, newJobRow } from "../knex-job-queue.js";
import type { KnexWebhookPublisher } from "../knex-webhook-publisher.js";
import { publishEmailEvent } from "./email-webhook-events.js";
import { DbBoolean, DbDate, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const NullableString = t.union([t.string, t.null]);

const EmailSendRow = t.type({
  id: t.string,
  company_id: t.string,
  subscriber_id: NullableString,
  recipient_email: t.string,
  email_type: oneOf<EmailType>(EMAIL_TYPES),
  send_kind: t.union([oneOf<SendKind>(SEND_KINDS), t.null]),
  transactional_email_id: NullableString,
  template_id: NullableString,
  campaign_id: NullableString,
  automation_id: NullableString,
  automation_node_id: NullableString,
  subject: t.string,
  sender_email: t.string,
  sender_name: NullableString,
  reply_to: NullableString,
  status: oneOf<SendStatus>(SEND_STATUSES),
  suppression_reason: NullableString,
  failure_reason: NullableString,
  message_id: NullableString,
  mailbox_provider: oneOf<MailboxProvider>(MAILBOX_PROVIDERS),
  is_test: DbBoolean,
  open_tracking: DbBoolean,
  click_tracking: DbBoolean,
  payload: t.union([t.null, dbJson(t.UnknownRecord)]),
  sent_at: DbNullableDate,
  delivered_at: DbNullableDate,
  bounce_type: NullableString,
  bounce_sub_type: NullableString,
  bounced_at: DbNullableDate,
  complained_at: DbNullableDate,
  suppressed_at: DbNullableDate,
  created_at: DbDate,
  updated_at: DbDate,
});

/** The rendered bodies, joined from email_send_contents. */
const SendBodiesRow = t.type({ html: NullableString, text: NullableString });
/** A send's bodies when it has no content row (none rendered, or removed by retention). */
const NO_BODIES: SendBodies = { html: null, text: null };

/** Event-loop turns a group waits for company (as for custom events), and its size at most. */
const GROUP_TURNS = 2;
const MAX_GROUP = 200;

/** Sends one delivery job takes at most (handed to the transport as it takes them). */
const SENDS_PER_DELIVERY = 50;

interface OutboxItem {
  readonly send: NewEmailSend;
  readonly delivery: DeliveryJob;
  readonly at: Date;
}

interface Outcome {
  readonly companyId: string;
  readonly sendId: string;
  readonly changes: Record<string, unknown>;
  readonly event: SendOutcomeEvent & { readonly type: string };
}

/** The columns a new send leaves null until delivery, bounces or complaints fill them. */
const UNSET_OUTCOME = {
  suppression_reason: null,
  failure_reason: null,
  message_id: null,
  sent_at: null,
  delivered_at: null,
  bounce_type: null,
  bounce_sub_type: null,
  bounced_at: null,
  complained_at: null,
  suppressed_at: null,
} as const;

function toEmailSend(row: unknown): EmailSend {
  return { ...toEmailSendWithoutBodies(row), ...toSendBodies(row) };
}

/** Only the two bodies: the decoder hands back the whole row it was given. */
function toSendBodies(row: unknown): SendBodies {
  const { html, text } = decodeRow(SendBodiesRow, row, "email_send_contents");
  return { html, text };
}

function toEmailSendWithoutBodies(row: unknown): EmailSendWithoutBodies {
  const r = decodeRow(EmailSendRow, row, "email_sends");
  return {
    id: r.id,
    companyId: r.company_id,
    subscriberId: r.subscriber_id,
    recipientEmail: r.recipient_email,
    emailType: r.email_type,
    sendKind: r.send_kind,
    transactionalEmailId: r.transactional_email_id,
    templateId: r.template_id,
    campaignId: r.campaign_id,
    automationId: r.automation_id,
    automationNodeId: r.automation_node_id,
    subject: r.subject,
    sender: { email: r.sender_email, name: r.sender_name },
    replyTo: r.reply_to,
    status: r.status,
    suppressionReason: r.suppression_reason,
    failureReason: r.failure_reason,
    messageId: r.message_id,
    mailboxProvider: r.mailbox_provider,
    isTest: r.is_test,
    openTracking: r.open_tracking,
    clickTracking: r.click_tracking,
    payload: r.payload ?? {},
    sentAt: r.sent_at,
    deliveredAt: r.delivered_at,
    bounceType: r.bounce_type,
    bounceSubType: r.bounce_sub_type,
    bouncedAt: r.bounced_at,
    complainedAt: r.complained_at,
    suppressedAt: r.suppressed_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A send with its rendered content (a table of its own, so an outcome's update does not write the HTML again). */
export const sendsWithContent = (db: Knex | Knex.Transaction): Knex.QueryBuilder =>
  db("email_sends")
    .leftJoin("email_send_contents", "email_send_contents.email_send_id", "email_sends.id")
    .select("email_sends.*", "email_send_contents.html", "email_send_contents.text");

/**
 * Writes new pending sends and their content (the campaign send engine writes in bulk).
 * `ignoreConflicts`: a send that exists already (the unique send per campaign and contact) is
 * skipped. Returns the IDs written.
 */
export async function insertSends(trx: Knex.Transaction, sends: readonly NewEmailSend[], options: { ignoreConflicts?: boolean } = {}): Promise<string[]> {
  const insert = trx("email_sends").insert(sends.map(newSendRow));
  let written = sends.map((send) => send.id);
  if (options.ignoreConflicts) {
    const ids = await insert.onConflict().ignore().returning<Array<{ id: string } | string>>("id");
    written = ids.map((entry) => (typeof entry === "string" ? entry : entry.id));
  } else await insert;
  const kept = new Set(written);
  const contents = sends.filter((send) => kept.has(send.id) && (send.html !== null || send.text !== null));
  if (contents.length > 0)
    await trx("email_send_contents").insert(
      contents.map((send) => ({ email_send_id: send.id, created_at: toDbDate(send.createdAt), html: send.html, text: send.text })),
    );
  return written;
}

/** The row of a new pending send. */
function newSendRow(send: NewEmailSend) {
  const at = toDbDate(send.createdAt);
  return {
    id: send.id,
    company_id: send.companyId,
    subscriber_id: send.subscriberId ?? null,
    recipient_email: send.recipientEmail,
    email_type: send.emailType,
    send_kind: send.sendKind ?? null,
    transactional_email_id: send.transactionalEmailId ?? null,
    template_id: send.templateId ?? null,
    campaign_id: send.campaignId ?? null,
    automation_id: send.automationId ?? null,
    automation_node_id: send.automationNodeId ?? null,
    subject: send.subject,
    sender_email: send.sender.email,
    sender_name: send.sender.name ?? null,
    reply_to: send.replyTo ?? null,
    status: "pending",
    mailbox_provider: send.mailboxProvider,
    is_test: send.isTest,
    open_tracking: send.openTracking,
    click_tracking: send.clickTracking,
    payload: JSON.stringify(send.payload),
    created_at: at,
    updated_at: at,
  };
}

/** The webhook event each provider event is published as. */
const WEBHOOK_TYPE_OF: Record<DeliveryEventType, "email.delivered" | "email.bounced" | "email.complained" | "email.delivery_delayed"> = {
  delivered: "email.delivered",
  bounced: "email.bounced",
  complained: "email.complained",
  delayed: "email.delivery_delayed",
};

/** `email_sends` and the events delivery writes into `email_events`. */
export class KnexEmailSendRepository implements EmailSendRepository {
  /** Sends queued together (concurrent requests) are written, with their jobs, in one transaction. */
  private readonly outbox = new GroupCommit<OutboxItem, void>((items) => this.writeOutbox(items), GROUP_TURNS, MAX_GROUP);
  /** Outcomes of deliveries that finish together share one transaction. */
  private readonly outcomes = new GroupCommit<Outcome, boolean>((items) => this.writeOutcomes(items), GROUP_TURNS, MAX_GROUP);

  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
    /** Publishes the send's events to the company's webhooks, in the transactions that record them. */
    private readonly webhooks?: KnexWebhookPublisher,
  ) {}

  async create(send: NewEmailSend, delivery: DeliveryJob): Promise<EmailSend> {
    await this.outbox.submit([{ send, delivery, at: send.createdAt }]);
    // The new row as a read would return it (outcome columns not yet set), without reading it back.
    return toEmailSend({ ...newSendRow(send), html: send.html, text: send.text, ...UNSET_OUTCOME });
  }

  async get(companyId: string, sendId: string): Promise<EmailSend | null> {
    const row = await sendsWithContent(this.knex).where({ "email_sends.company_id": companyId, "email_sends.id": sendId }).first();
    return row ? toEmailSend(row) : null;
  }

  async getMany(companyId: string, sendIds: readonly string[]): Promise<EmailSendWithoutBodies[]> {
    if (sendIds.length === 0) return [];
    const query = this.knex("email_sends").whereIn("email_sends.id", [...sendIds]);
    // SQLite's planner, with no statistics, would walk every send of the company through its
    // company index to find a few IDs; `+` keeps the company test out of its index choice.
    if (isPostgres(this.knex)) query.where({ "email_sends.company_id": companyId });
    else query.whereRaw("+email_sends.company_id = ?", [companyId]);
    return (await query).map(toEmailSendWithoutBodies);
  }

  async bodiesOf(companyId: string, sendId: string): Promise<SendBodies> {
    const row = await this.knex("email_send_contents")
      .join("email_sends", "email_sends.id", "email_send_contents.email_send_id")
      .where({ "email_sends.company_id": companyId, "email_send_contents.email_send_id": sendId })
      .first("email_send_contents.html", "email_send_contents.text");
    return row ? toSendBodies(row) : NO_BODIES;
  }

  async findByMessageId(companyId: string, messageId: string): Promise<EmailSend | null> {
    const bare = messageId.trim().replace(/^<|>$/g, "");
    if (!bare) return null;
    const row = await sendsWithContent(this.knex)
      .where({ "email_sends.company_id": companyId })
      .whereIn("message_id", [`<${bare}>`, bare])
      .first();
    return row ? toEmailSend(row) : null;
  }

  async markSent(companyId: string, sendId: string, messageId: string, event: SendOutcomeEvent): Promise<boolean> {
    const at = toDbDate(event.at);
    return this.settle(companyId, sendId, { status: "sent", message_id: messageId, sent_at: at, updated_at: at }, { ...event, type: "send" });
  }

  async markFailed(companyId: string, sendId: string, reason: string, event: SendOutcomeEvent): Promise<boolean> {
    const at = toDbDate(event.at);
    return this.settle(companyId, sendId, { status: "failed", failure_reason: reason, updated_at: at }, { ...event, type: "transport_failure" });
  }

  async markSuppressed(companyId: string, sendId: string, reason: string, at: Date): Promise<boolean> {
    const when = toDbDate(at);
    const updated = await this.knex("email_sends")
      .where({ company_id: companyId, id: sendId, status: "pending" })
      .update({ status: "suppressed", suppression_reason: reason, suppressed_at: when, updated_at: when });
    return updated > 0;
  }

  /** The sends with their delivery jobs: one job per company and run of up to SENDS_PER_DELIVERY sends. */
  private async writeOutbox(items: readonly OutboxItem[]): Promise<void[]> {
    const byCompany = new Map<string, OutboxItem[]>();
    for (const item of items) byCompany.set(item.send.companyId, [...(byCompany.get(item.send.companyId) ?? []), item]);
    const jobs = [...byCompany].flatMap(([companyId, sends]) =>
      chunksOf(sends, SENDS_PER_DELIVERY).map((run) =>
        newJobRow(
          run[0]!.delivery(
            companyId,
            run.map((item) => item.send.id),
          ),
          this.ids.next("job"),
          run[0]!.at,
        ),
      ),
    );
    await this.knex.transaction(async (trx) => {
      await insertSends(
        trx,
        items.map((item) => item.send),
      );
      await trx("jobs").insert(jobs);
    });
    await announceJobs(
      this.knex,
      jobs.map((job) => job.type),
    );
    return items.map(() => undefined);
  }

  /** Moves a pending send to its outcome and records the event, in one transaction. */
  private async settle(companyId: string, sendId: string, changes: Record<string, unknown>, event: SendOutcomeEvent & { type: string }): Promise<boolean> {
    const [settled] = await this.outcomes.submit([{ companyId, sendId, changes, event }]);
    return settled ?? false;
  }

  private async writeOutcomes(items: readonly Outcome[]): Promise<boolean[]> {
    let published = 0;
    const settled = await this.knex.transaction(async (trx) => {
      const settled: boolean[] = [];
      published = 0;
      for (const item of items) {
        const done = await this.settleIn(trx, item);
        settled.push(done);
        if (done) published += await this.publishOutcome(trx, item);
      }
      return settled;
    });
    await this.webhooks?.announce(published);
    return settled;
  }

  /** email.sent or email.failed, with the outcome's event ID. */
  private publishOutcome(trx: Knex.Transaction, { companyId, sendId, changes, event }: Outcome): Promise<number> {
    const type = event.type === "send" ? "email.sent" : event.type === "transport_failure" ? "email.failed" : null;
    if (!type) return Promise.resolve(0);
    const extra = type === "email.failed" ? { reason: changes.failure_reason ?? null } : {};
    return publishEmailEvent(this.webhooks, trx, companyId, sendId, { id: event.id, type, at: event.at, extra });
  }

  private async settleIn(trx: Knex.Transaction, { companyId, sendId, changes, event }: Outcome): Promise<boolean> {
    const updated = await trx("email_sends").where({ company_id: companyId, id: sendId, status: "pending" }).update(changes);
    if (updated === 0) return false;
    await trx("email_events").insert({
      id: event.id,
      company_id: companyId,
      email_send_id: sendId,
      event_type: event.type,
      event_time: toDbDate(event.at),
      details: event.details ? JSON.stringify(event.details) : null,
      created_at: toDbDate(event.at),
    });
    return true;
  }

  /** The send's status after a delivery event, by statusOnDeliveryEvent, in one UPDATE: CASE status WHEN before THEN after. */
  private async changeStatus(send: Knex.QueryBuilder, event: DeliveryEventType, at: string): Promise<void> {
    const changes = statusChangesOn(event);
    if (changes.length === 0) return;
    const next = this.knex.raw(`case status ${changes.map(() => "when ? then ?").join(" ")} end`, changes.flat());
    await send
      .whereIn(
        "status",
        changes.map(([before]) => before),
      )
      .update({ status: next, updated_at: at });
  }

  async recordDeliveryEvent(companyId: string, sendId: string, eventId: string, event: DeliveryEvent, receivedAt: Date): Promise<boolean> {
    let published = 0;
    const stored = await this.knex.transaction(async (trx) => {
      const inserted = await trx("email_events")
        .insert({
          id: eventId,
          company_id: companyId,
          email_send_id: sendId,
          event_type: EVENT_TYPE_OF[event.type],
          event_time: toDbDate(event.occurredAt),
          bounce_type: event.bounceType ?? null,
          bounce_sub_type: event.bounceSubType ?? null,
          provider_event_id: event.providerEventId,
          details: event.details ? JSON.stringify(event.details) : null,
          created_at: toDbDate(receivedAt),
        })
        // The only unique key a fresh row can collide on is (company_id, provider_event_id).
        .onConflict()
        .ignore()
        .returning("id");
      if (inserted.length === 0) return false;

      const at = toDbDate(event.occurredAt);
      const send = trx("email_sends").where({ company_id: companyId, id: sendId });
      if (event.type === "delivered") {
        await send.clone().whereNull("delivered_at").update({ delivered_at: at });
      } else if (event.type === "bounced") {
        // The latest bounce is the one the bounce breakdown counts.
        await send
          .clone()
          .where((latest) => latest.whereNull("bounced_at").orWhere("bounced_at", "<=", at))
          .update({ bounce_type: event.bounceType ?? "Undetermined", bounce_sub_type: event.bounceSubType ?? null, bounced_at: at });
      } else if (event.type === "complained") {
        await send.clone().whereNull("complained_at").update({ complained_at: at });
      }
      await this.changeStatus(send.clone(), event.type, at!);
      published = await publishEmailEvent(this.webhooks, trx, companyId, sendId, {
        id: eventId,
        type: WEBHOOK_TYPE_OF[event.type],
        at: event.occurredAt,
        extra: event.type === "bounced" ? { bounce_type: event.bounceType ?? "Undetermined", bounce_sub_type: event.bounceSubType ?? null } : {},
      });
      return true;
    });
    await this.webhooks?.announce(published);
    return stored;
  }
}
