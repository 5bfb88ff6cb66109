import type { Sequence } from "./model.js";

/** How to send the event that starts an event-triggered sequence (create response of compat-reference §10). */
export interface EventTracking {
  readonly eventTrackingCode: string;
  readonly eventTracking: {
    readonly eventName: string;
    readonly endpoint: string;
    readonly method: "POST";
    readonly examplePayload: Readonly<Record<string, unknown>>;
  };
  readonly requiredEvents: readonly string[];
}

/** For a sequence started by an event: the endpoint, an example and a curl line; nothing for other triggers. */
export function eventTrackingOf(sequence: Pick<Sequence, "trigger" | "triggerConfig">, baseUrl: string): EventTracking | Record<string, never> {
  if (sequence.trigger !== "event_received" && sequence.trigger !== "frequency") return {};
  const eventName = String(sequence.triggerConfig.eventName);
  const endpoint = `${baseUrl}/api/v1/subscribers/events`;
  const examplePayload = { email: "contact@example.com", event: eventName, properties: {} };
  return {
    eventTrackingCode: [
      `curl -X POST ${endpoint} \\`,
      `  -H "Authorization: Bearer $API_KEY" -H "Content-Type: application/json" \\`,
      `  -d '${JSON.stringify(examplePayload).replace(/'/g, "'\\''")}'`,
    ].join("\n"),
    eventTracking: { eventName, endpoint, method: "POST", examplePayload },
    requiredEvents: [eventName],
  };
}
