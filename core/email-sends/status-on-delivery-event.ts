import { SEND_STATUSES, type DeliveryEventType, type SendStatus } from "../delivery/model.js";

/**
 * The stored status a send takes when a provider reports a delivery event, or null when the
 * event leaves the status (and the send's updated_at) alone:
 * - `delivered` advances a send that is pending or sent; a send already delivered, bounced,
 *   complained, failed or suppressed keeps its status;
 * - `bounced` wins over everything but a complaint (a complaint is the stronger signal), and a
 *   later bounce touches a bounced send again;
 * - `complained` always wins;
 * - `delayed` (the receiving server has not taken it yet, and the provider keeps trying) changes nothing.
 * The repository applies exactly this rule in one atomic UPDATE (see statusChangesOn).
 */
export function statusOnDeliveryEvent(current: SendStatus, event: DeliveryEventType): SendStatus | null {
  switch (event) {
    case "delivered":
      return current === "pending" || current === "sent" ? "delivered" : null;
    case "bounced":
      return current === "complained" ? null : "bounced";
    case "complained":
      return "complained";
    case "delayed":
      return null;
  }
}

/** The rule for one event as pairs (status before -> status after), for a repository's single UPDATE. */
export function statusChangesOn(event: DeliveryEventType): ReadonlyArray<readonly [SendStatus, SendStatus]> {
  return SEND_STATUSES.flatMap((current) => {
    const next = statusOnDeliveryEvent(current, event);
    return next === null ? [] : [[current, next] as const];
  });
}
