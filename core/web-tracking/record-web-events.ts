import { occurredAtProblem } from "../events/model.js";
import type { CustomEventInput, RecordCustomEvent } from "../events/record-custom-event.js";
import type { ResolveEventContact } from "../events/resolve-event-contact.js";
import type { Clock } from "../ports/clock.js";
import { badRequest, unauthorized } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { WebEventBatch } from "./commands.js";
import type { IdentityTokens } from "./identity-tokens.js";
import type { WebTrackingKey } from "./model.js";
import type { WebTrackingKeyRepository } from "./ports.js";
import { isReservedForServer, WEB_EVENT_NAMES } from "./web-event-names.js";

export const IDENTITY_REQUIRED = unauthorized(
  "An identity token is required: call identify(email, identityToken) with a token minted by POST /api/v1/web-tracking-identities",
);
export const INVALID_IDENTITY = unauthorized("Invalid or expired identity token");

/** `lastUsedAt` is written at most this often per key, not on every batch. */
const LAST_USED_PRECISION_MS = 60_000;

export interface RecordedWebEvents {
  readonly subscriberId: string;
  /** Events recorded by this request. */
  readonly accepted: number;
  /** Events of a retried batch that were already recorded: nothing happened again. */
  readonly duplicates: number;
}

/**
 * A batch of the tracking script, from a page its key admits (AdmitWebPage): the identity token
 * must be one this server minted for this key and this address, and unexpired. The events are
 * recorded as the contact's custom events through RecordCustomEvent, the same use case as the
 * events API, so they start sequences and count in segments alike. Each event's ID (the script's)
 * is its eventId, so a batch sent twice (a retry, a beacon) is recorded once.
 */
export class RecordWebEvents {
  constructor(
    private readonly keys: WebTrackingKeyRepository,
    private readonly tokens: IdentityTokens,
    private readonly resolveContact: ResolveEventContact,
    private readonly record: RecordCustomEvent,
    private readonly clock: Clock,
  ) {}

  execute = async (key: WebTrackingKey, batch: WebEventBatch): Promise<Result<RecordedWebEvents>> => {
    const now = this.clock.now();
    if (!batch.identity) return fail(IDENTITY_REQUIRED);
    const identity = this.tokens.read(batch.identity.token, now);
    if (!identity || identity.keyId !== key.id || identity.email !== batch.identity.email) return fail(INVALID_IDENTITY);

    const inputs: CustomEventInput[] = [];
    for (const [index, event] of batch.events.entries()) {
      const name = event.type === "track" ? event.name : WEB_EVENT_NAMES[event.type];
      if (name === undefined) return fail(badRequest(`events.${index}.name is required for track`));
      if (isReservedForServer(name)) return fail(badRequest(`events.${index}.name: subscriber.* events are recorded by the service only`));
      // A visitor's clock may run ahead: an event is never later than its arrival.
      const occurredAt = event.occurredAt && event.occurredAt.getTime() < now.getTime() ? event.occurredAt : now;
      const problem = occurredAtProblem(occurredAt, now, `events.${index}.occurredAt`);
      if (problem) return fail(badRequest(problem));
      const properties = event.properties ?? {};
      inputs.push({
        name,
        properties: batch.anonymousId ? { anonymousId: batch.anonymousId, ...properties } : properties,
        occurredAt,
        eventId: event.id,
        source: "web",
      });
    }

    const contact = await this.resolveContact.execute(key.companyId, { email: identity.email });
    if (contact._tag === "Left") return contact;
    const recorded = await this.record.executeMany(contact.right, inputs);
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) await this.keys.markUsed(key.id, now);
    const duplicates = recorded.filter((event) => event.duplicate).length;
    return ok({ subscriberId: contact.right.id, accepted: recorded.length - duplicates, duplicates });
  };
}
