import { triggerAfterWrite, type Automations } from "../ports/automations.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, conflict } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateSubscriberCommand } from "./commands.js";
import { identifySubscriber, type SubscriberRef } from "./identify.js";
import { emailProviderOf, RESERVED_ATTRIBUTE, type Attributes, type SmsStatus, type Subscriber, type TaggedSubscriber } from "./model.js";
import { normalizePhone } from "./phone.js";
import type { ContactChanges, SubscriberRepository } from "./ports.js";
import type { SubscriberQueries } from "./queries.js";
import { normalizeTags, reservedAttributeError } from "./save-contact.js";
import { toSubscriberView, type SubscriberView } from "./view.js";

const blankToNull = (value: string | null): string | null => (value === null || value.trim() === "" ? null : value);

/**
 * PATCH /subscribers/{email} (or by externalId): only the given fields change. `""` or null clear
 * names, phone, timezone and externalId; `tags` replaces the set (the tags it adds start their
 * tag_added sequences); `status: unsubscribed` is a global unsubscribe (every list membership is
 * left too, and every sequence at once).
 */
export class UpdateSubscriber {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly queries: SubscriberQueries,
    private readonly automations: Automations,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, ref: SubscriberRef, input: UpdateSubscriberCommand): Promise<Result<SubscriberView>> => {
    if (Object.values(input).every((value) => value === undefined)) return fail(badRequest("No supported fields provided"));
    if (input.customAttributes && Object.hasOwn(input.customAttributes, RESERVED_ATTRIBUTE)) return fail(reservedAttributeError());
    const tags = input.tags === undefined ? undefined : normalizeTags(input.tags);
    if (tags?._tag === "Left") return tags;

    const found = await identifySubscriber(this.subscribers, actor.companyId, ref);
    if (found._tag === "Left") return found;
    const contact = found.right;

    const identity = await this.identityChanges(actor.companyId, contact, input);
    if (identity._tag === "Left") return identity;
    const sms = smsChanges(contact, input);
    if (sms._tag === "Left") return sms;

    const now = this.clock.now();
    const status = input.status ?? contact.status;
    const unsubscribes = status === "unsubscribed" && contact.status !== "unsubscribed";
    const next: Subscriber = {
      ...contact,
      ...identity.right,
      ...sms.right,
      firstName: input.firstName === undefined ? contact.firstName : blankToNull(input.firstName),
      lastName: input.lastName === undefined ? contact.lastName : blankToNull(input.lastName),
      timezone: input.timezone === undefined ? contact.timezone : input.timezone,
      customAttributes: attributesAfter(contact.customAttributes, input),
      status,
      unsubscribedAt: status === "unsubscribed" ? (contact.unsubscribedAt ?? now) : null,
      updatedAt: now,
    };
    const changes: ContactChanges = tags ? { replaceTags: tags.right } : {};
    const saved = await this.subscribers.update(next, changes);
    await this.automations.contactChanged(contact, saved, now);
    if (unsubscribes) await this.queries.leaveAllLists(actor.companyId, contact.id, now);
    if (status !== "active" && contact.status === "active") await this.automations.exit(actor.companyId, { subscriberId: contact.id }, status);
    const addedTags = saved.tags.filter((tag) => !contact.tags.includes(tag));
    if (addedTags.length > 0) await triggerAfterWrite(this.automations, actor.companyId, [contact.id], { trigger: "tag_added", tagNames: addedTags });
    return ok(toSubscriberView(saved));
  };

  /** A new email or externalId, refused (409) when another contact of the company holds it. */
  private async identityChanges(
    companyId: string,
    contact: TaggedSubscriber,
    input: UpdateSubscriberCommand,
  ): Promise<Result<Pick<Subscriber, "email" | "emailProvider" | "externalId">>> {
    const email = input.email ?? contact.email;
    if (email !== contact.email) {
      const holder = await this.subscribers.findByEmail(companyId, email);
      if (holder && holder.id !== contact.id) return fail(conflict("email is already used by another subscriber"));
    }
    const externalId = input.externalId === undefined ? contact.externalId : blankToNull(input.externalId);
    if (externalId !== null && externalId !== contact.externalId) {
      const holder = await this.subscribers.findByExternalId(companyId, externalId);
      if (holder && holder.id !== contact.id) return fail(conflict("externalId is already used by another subscriber"));
    }
    return ok({ email, emailProvider: email === contact.email ? contact.emailProvider : emailProviderOf(email), externalId });
  }
}

/** `replace` (default) swaps the whole object; `merge` overwrites the given keys only. */
function attributesAfter(current: Attributes, input: UpdateSubscriberCommand): Attributes {
  if (!input.customAttributes) return current;
  const given = input.customAttributes as Attributes;
  return input.customAttributesStrategy === "merge" ? { ...current, ...given } : given;
}

/** A changed phone resets SMS consent; `smsConsent` then subscribes (a phone is needed) or opts out. */
function smsChanges(contact: Subscriber, input: UpdateSubscriberCommand): Result<{ phone: string | null; smsStatus: SmsStatus }> {
  let phone = contact.phone;
  let smsStatus = contact.smsStatus;
  if (input.phone !== undefined) {
    const normalised = normalizePhone(input.phone, input.phoneCountry);
    if (normalised._tag === "Left") return normalised;
    if (normalised.right !== contact.phone) smsStatus = "not_subscribed";
    phone = normalised.right;
  }
  if (input.smsConsent === true) {
    if (!phone) return fail(badRequest("smsConsent needs a phone number"));
    smsStatus = "subscribed";
  } else if (input.smsConsent === false && (smsStatus === "subscribed" || smsStatus === "pending")) {
    smsStatus = "unsubscribed";
  }
  return ok({ phone, smsStatus });
}
