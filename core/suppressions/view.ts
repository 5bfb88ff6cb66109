import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, Timestamp, view } from "../shared/view-fields.js";
import { isRemovable, SUPPRESSION_REASONS, type Suppression } from "./model.js";

const SuppressionReason = oneOf(SUPPRESSION_REASONS, "SuppressionReason");

/** A suppression as the API shows it (compat-reference §24). */
export const SuppressionView = view(
  {
    id: Id,
    email: t.string,
    suppressionType: SuppressionReason,
    reason: SuppressionReason,
    emailSendId: NullableString,
    removable: t.boolean,
    suppressedAt: Timestamp,
  },
  "Suppression",
);
export type SuppressionView = t.TypeOf<typeof SuppressionView>;

/** `removable`: whether DELETE /suppressions/{email} lifts it (a bounce or manual block; never a complaint or an unsubscribe). */
export const suppressionView = (suppression: Suppression): SuppressionView => ({
  id: suppression.id,
  email: suppression.email,
  suppressionType: suppression.reason,
  reason: suppression.reason,
  emailSendId: suppression.emailSendId,
  removable: isRemovable(suppression.reason),
  suppressedAt: suppression.createdAt.toISOString(),
});
