import type { Suppression } from "./model.js";

/** A suppression as the API shows it. Every suppression can be removed through the API. */
export const suppressionView = (suppression: Suppression) => ({
  id: suppression.id,
  email: suppression.email,
  suppressionType: suppression.reason,
  reason: suppression.reason,
  emailSendId: suppression.emailSendId,
  removable: true,
  suppressedAt: suppression.createdAt.toISOString(),
});
export type SuppressionView = ReturnType<typeof suppressionView>;
