import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TriggerSettings } from "./model.js";

/** How a contact enters a sequence (compat-reference §10, create body). */
export const TRIGGERS = ["contact_added", "tag_added", "segment_entered", "event_received", "inbound_webhook", "inactivity", "frequency"] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** The trigger fields of a request, flat as the client sends them. */
export interface TriggerInput {
  readonly trigger?: Trigger | undefined;
  readonly listId?: string | undefined;
  readonly listScope?: "any_contact" | "any_list" | undefined;
  readonly tagName?: string | undefined;
  readonly segmentId?: string | undefined;
  readonly stopOnSegmentExit?: boolean | undefined;
  readonly eventName?: string | undefined;
  readonly propertyFilters?: readonly unknown[] | undefined;
  readonly inactiveDays?: number | undefined;
  readonly inactivityBaseline?: string | undefined;
  readonly minCount?: number | undefined;
  readonly timeWindowDays?: number | undefined;
  readonly integrationSlug?: unknown;
  readonly integrationEventKey?: unknown;
  readonly customIntegration?: unknown;
}

const wholeNumber = (value: number | undefined, field: string, min: number, max: number): string | null =>
  value === undefined || !Number.isInteger(value) || value < min || value > max ? `${field} must be a whole number from ${min} to ${max}` : null;

const defined = (entries: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

/**
 * The trigger and its config from the request's fields: only the fields of that trigger are
 * kept, and the ones it needs must be there. Triggers that need a service this server does not
 * have (inbound webhooks, integrations) are refused.
 */
export function triggerSettings(input: TriggerInput): Result<TriggerSettings> {
  const trigger = input.trigger ?? "contact_added";
  const refuse = (reason: string) => fail(badRequest(`trigger ${trigger}: ${reason}`));
  if (input.integrationSlug !== undefined || input.integrationEventKey !== undefined || input.customIntegration !== undefined)
    return fail(badRequest("Integration triggers (integrationSlug, integrationEventKey, customIntegration) are not supported by this server"));
  switch (trigger) {
    case "contact_added":
      if (input.listId !== undefined && input.listScope !== undefined) return refuse("give listId or listScope, not both");
      return ok({ trigger, triggerConfig: input.listId !== undefined ? { listId: input.listId } : { listScope: input.listScope ?? "any_contact" } });
    case "tag_added":
      return input.tagName === undefined ? refuse("tagName is required") : ok({ trigger, triggerConfig: { tagName: input.tagName } });
    case "segment_entered":
      return input.segmentId === undefined
        ? refuse("segmentId is required")
        : ok({ trigger, triggerConfig: { segmentId: input.segmentId, stopOnSegmentExit: input.stopOnSegmentExit ?? false } });
    case "event_received":
      return input.eventName === undefined
        ? refuse("eventName is required")
        : ok({ trigger, triggerConfig: defined({ eventName: input.eventName, propertyFilters: input.propertyFilters ?? [] }) });
    case "inbound_webhook":
      return fail(badRequest("trigger inbound_webhook is not supported by this server"));
    case "inactivity": {
      const violation = wholeNumber(input.inactiveDays, "inactiveDays", 1, 3650);
      if (violation) return refuse(violation);
      return ok({ trigger, triggerConfig: { inactiveDays: input.inactiveDays, inactivityBaseline: input.inactivityBaseline ?? "sequence_created_at" } });
    }
    case "frequency": {
      if (input.eventName === undefined) return refuse("eventName is required");
      const violation = wholeNumber(input.minCount, "minCount", 1, 10_000) ?? wholeNumber(input.timeWindowDays, "timeWindowDays", 1, 3650);
      if (violation) return refuse(violation);
      return ok({
        trigger,
        triggerConfig: defined({
          eventName: input.eventName,
          minCount: input.minCount,
          timeWindowDays: input.timeWindowDays,
          propertyFilters: input.propertyFilters,
        }),
      });
    }
  }
}
