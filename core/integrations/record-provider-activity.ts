import type { RecordCustomEvent } from "../events/record-custom-event.js";
import type { ResolveEventContact } from "../events/resolve-event-contact.js";
import type { ContactActivity, Integration, IntegrationCredentials, MappedRecord } from "./model.js";
import type { ProviderApis } from "./ports.js";

/** What recording a provider's records did. */
export interface RecordedActivity {
  readonly subscriberIds: string[];
  /** Names of the events recorded (not redelivered ones). */
  readonly events: string[];
  /** Events already recorded (a redelivery, or a sync meeting a webhook's order). */
  duplicates: number;
  /** Why records or people were left out. */
  readonly skipped: string[];
}

/**
 * Turns mapped provider records into the contacts' attributes and custom events through the same
 * use cases as POST /subscribers/events (ResolveEventContact, then RecordCustomEvent), so the
 * events start sequences through the one automations entry point, count in segments and feed the
 * commerce forecast alike. A contact the integration creates joins the integration's lists.
 */
export class RecordProviderActivity {
  constructor(
    private readonly resolveContact: ResolveEventContact,
    private readonly record: RecordCustomEvent,
    private readonly apis: ProviderApis,
  ) {}

  execute = async (integration: Integration, credentials: IntegrationCredentials, records: readonly MappedRecord[]): Promise<RecordedActivity> => {
    const outcome: RecordedActivity = { subscriberIds: [], events: [], duplicates: 0, skipped: [] };
    for (const mapped of records) {
      if (mapped.kind === "skipped") {
        outcome.skipped.push(mapped.reason);
        continue;
      }
      for (const activity of mapped.activities) await this.recordOne(integration, credentials, activity, outcome);
    }
    return outcome;
  };

  private async recordOne(integration: Integration, credentials: IntegrationCredentials, activity: ContactActivity, outcome: RecordedActivity): Promise<void> {
    const email =
      activity.email ?? (activity.providerCustomerId ? await this.apis.customerEmail(integration.provider, credentials, activity.providerCustomerId) : null);
    if (!email) {
      outcome.skipped.push("the customer's email is unknown");
      return;
    }
    const attributes = Object.keys(activity.attributes).length > 0 ? activity.attributes : undefined;
    const lists = integration.settings.listIds ?? [];
    const contact = await this.resolveContact.execute(integration.companyId, {
      email,
      ...(activity.firstName ? { firstName: activity.firstName } : {}),
      ...(activity.lastName ? { lastName: activity.lastName } : {}),
      ...(attributes ? { customAttributes: attributes } : {}),
      ...(lists.length > 0 ? { lists } : {}),
    });
    if (contact._tag === "Left") {
      outcome.skipped.push(`${email}: ${contact.left.message}`);
      return;
    }
    if (!outcome.subscriberIds.includes(contact.right.id)) outcome.subscriberIds.push(contact.right.id);
    if (activity.events.length === 0) return;
    const recorded = await this.record.executeMany(
      contact.right,
      activity.events.map((event) => ({ ...event, source: "integration" as const })),
    );
    for (const event of recorded) {
      if (event.duplicate) outcome.duplicates += 1;
      else outcome.events.push(event.name);
    }
  }
}
