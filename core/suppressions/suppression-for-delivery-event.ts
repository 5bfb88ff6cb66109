import type { DeliveryEvent } from "../delivery/model.js";
import type { SuppressionReason } from "./model.js";

/** The suppression a delivery event causes: permanent bounces and complaints stop all further mail. */
export function suppressionForDeliveryEvent(event: Pick<DeliveryEvent, "type" | "bounceType">): SuppressionReason | null {
  if (event.type === "complained") return "complaint";
  if (event.type === "bounced" && event.bounceType === "Permanent") return "hard_bounce";
  return null;
}
