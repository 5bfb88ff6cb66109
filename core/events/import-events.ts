import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { ImportedEvent } from "./commands.js";
import { occurredAtProblem } from "./model.js";
import type { RecordCustomEvent } from "./record-custom-event.js";
import type { EventSubscriber, ResolveEventContact } from "./resolve-event-contact.js";
import type { EventImportFailure, EventImportReportView, EventSideEffectFailure } from "./view.js";

const identityOf = (event: ImportedEvent) => ({
  ...(event.email ? { email: event.email } : {}),
  ...(event.externalId ? { externalId: event.externalId } : {}),
});

/**
 * Records a small batch of events for many contacts (`POST /subscribers/events/imports`), in
 * order. Each event stands alone: one that cannot be recorded is reported and the rest go on.
 * Contacts are found or created one by one; the events are then stored in one write.
 * An email creates a missing contact; an externalId alone only reaches existing contacts.
 */
export class ImportEvents {
  constructor(
    private readonly resolveContact: ResolveEventContact,
    private readonly record: RecordCustomEvent,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, events: readonly ImportedEvent[]): Promise<Result<EventImportReportView>> => {
    const now = this.clock.now();
    const failures: EventImportFailure[] = [];
    const failure = (index: number, event: ImportedEvent, error: string) =>
      failures.push({ index, name: event.name, eventId: event.eventId, ...identityOf(event), error });

    // Contacts first, in order (a contact may be created by an earlier event of the batch)...
    const contacts = new Map<string, EventSubscriber>();
    const accepted: Array<{ index: number; event: ImportedEvent; contact: EventSubscriber; occurredAt: Date }> = [];
    for (const [index, event] of events.entries()) {
      const occurredAt = event.occurredAt ?? now;
      const problem = occurredAtProblem(occurredAt, now, `events.${index}.occurredAt`);
      if (problem) {
        failure(index, event, problem);
        continue;
      }
      const key = JSON.stringify([event.email ?? null, event.externalId ?? null]);
      let contact = contacts.get(key);
      if (!contact) {
        const resolved = await this.resolveContact.execute(actor.companyId, identityOf(event));
        if (resolved._tag === "Left") {
          failure(index, event, resolved.left.message);
          continue;
        }
        contact = resolved.right;
        contacts.set(key, contact);
      }
      accepted.push({ index, event, contact, occurredAt });
    }

    // ...then every event at once, so that they are written together (still in order).
    const results = await Promise.allSettled(
      accepted.map(({ event, contact, occurredAt }) =>
        this.record.execute(contact, { name: event.name, properties: event.properties ?? {}, occurredAt, eventId: event.eventId, source: "import" }),
      ),
    );
    const sideEffectFailures: EventSideEffectFailure[] = [];
    const touched = new Set<string>();
    let recorded = 0;
    let duplicates = 0;
    for (const [position, result] of results.entries()) {
      const { index, event, contact } = accepted[position]!;
      if (result.status === "rejected") {
        failure(index, event, "The event could not be recorded");
        continue;
      }
      touched.add(contact.id);
      if (result.value.duplicate) duplicates += 1;
      else recorded += 1;
      if (result.value.sideEffectFailures.length > 0) {
        sideEffectFailures.push({
          index,
          name: event.name,
          eventId: event.eventId,
          eventRecordId: result.value.id,
          subscriberId: contact.id,
          errors: result.value.sideEffectFailures,
        });
      }
    }
    failures.sort((a, b) => a.index - b.index);
    return ok({
      total: events.length,
      recorded,
      duplicates,
      failed: failures.length,
      sideEffectFailed: sideEffectFailures.length,
      subscribers: touched.size,
      failures,
      sideEffectFailures,
    });
  };
}
