/** Where a custom event came from: the events API, an account event delivered to a member, an import, a double opt-in confirmation, the web tracking script, a provider integration. */
export type CustomEventSource = "api" | "account" | "import" | "opt_in" | "web" | "integration";

/** A custom event as stored (the `custom_events` dataset). */
export interface CustomEvent {
  readonly id: string;
  readonly companyId: string;
  readonly subscriberId: string;
  readonly name: string;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly occurredAt: Date;
  readonly receivedAt: Date;
  /** The sender's idempotency key: unique per contact and event name. */
  readonly eventId: string | null;
  readonly historical: boolean;
  readonly source: CustomEventSource;
}

/** A company's event name, created on first sight and counted. */
export interface EventDefinition {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly eventCount: number;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
}

const HOUR_MS = 60 * 60 * 1000;

/** Events over an hour old when received are history: stored and segmentable, they trigger nothing. */
export const isHistorical = (occurredAt: Date, now: Date): boolean => now.getTime() - occurredAt.getTime() > HOUR_MS;

/** The oldest `occurredAt` accepted: five years before now. */
export function oldestAcceptedOccurrence(now: Date): Date {
  const oldest = new Date(now);
  oldest.setUTCFullYear(oldest.getUTCFullYear() - 5);
  return oldest;
}

/** The 400 message for an `occurredAt` older than five years, or null when acceptable. */
export const occurredAtProblem = (occurredAt: Date, now: Date, path = "occurredAt"): string | null =>
  occurredAt.getTime() < oldestAcceptedOccurrence(now).getTime() ? `${path} must be within the last 5 years` : null;
