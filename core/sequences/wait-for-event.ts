import type { ContactEventRecord, SequenceActivityRepository } from "./activity-ports.js";
import type { Enrollment } from "./enrollment.js";
import type { SequenceNode } from "./model.js";
import { passesFilters, type PropertyFilter } from "./property-filters.js";

const DAY_MS = 86_400_000;
/** A wait without `timeoutDays` ends after a week (compat-reference §10). */
export const DEFAULT_TIMEOUT_DAYS = 7;
/** Events of the name read per check: enough to find a match among events whose properties do not pass. */
const EVENTS_READ = 100;

const filtersOf = (node: SequenceNode): PropertyFilter[] => (node.config.propertyFilters as PropertyFilter[] | undefined) ?? [];

/** Whether `node` is a wait that an event of this name and these properties ends. */
export const awaitsEvent = (node: SequenceNode, name: string, properties: Readonly<Record<string, unknown>>): boolean =>
  node.nodeType === "logic_wait_for_event" && node.config.eventName === name && passesFilters(properties, filtersOf(node));

/** When a wait for an event that starts at `now` times out. */
export const timeoutOf = (node: SequenceNode, now: Date): Date => new Date(now.getTime() + Number(node.config.timeoutDays ?? DEFAULT_TIMEOUT_DAYS) * DAY_MS);

/**
 * The event that ends the enrollment's wait at `node`: the first live event of the name, passing
 * the node's property filters, received since the wait began. Read from the stored events, so an
 * event whose wake-up was lost still counts when the wait times out.
 */
export async function awaitedEvent(
  activity: SequenceActivityRepository,
  enrollment: Enrollment,
  node: SequenceNode,
  waitingSince: Date,
): Promise<ContactEventRecord | null> {
  const events = await activity.eventsAfter(enrollment.companyId, enrollment.subscriberId, String(node.config.eventName), waitingSince, {
    inclusive: true,
    limit: EVENTS_READ,
  });
  return events.find((event) => passesFilters(event.properties, filtersOf(node))) ?? null;
}
