import type { EmailSend } from "../delivery/model.js";
import type { OptInMode } from "../subscribers/model.js";
import type { TrackingSettings } from "../tracking-settings/model.js";

/** A contact asked to confirm its subscription by email (double opt-in). */
export interface OptIn {
  readonly companyId: string;
  readonly subscriberId: string;
  readonly requestedAt: Date;
  /** The latest confirmation email queued. */
  readonly lastEmailAt: Date | null;
  readonly confirmedAt: Date | null;
}

/** How long a confirmation link works. */
export const CONFIRM_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** At most one confirmation email per contact in this time: a form or a script repeating itself cannot mail-bomb an address. */
export const RESEND_INTERVAL_MS = 10 * 60 * 1000;

/** The custom event recorded when a contact confirms: segments and sequences can start from it. */
export const SUBSCRIBER_CONFIRMED_EVENT = "subscriber.confirmed";

/** `confirmed` never asks, `double_opt_in` always does, `default` (or nothing) follows the company's setting. */
export const optInAsked = (mode: OptInMode | undefined, settings: Pick<TrackingSettings, "doubleOptInEnabled">): boolean =>
  mode === "double_opt_in" || ((mode ?? "default") === "default" && settings.doubleOptInEnabled);

/** Campaigns, sequences and marketing sends wait for the confirmation; transactional mail does not. */
export const needsConfirmation = (send: Pick<EmailSend, "emailType" | "sendKind">): boolean =>
  send.emailType !== "transactional" || send.sendKind === "marketing";

/** The suppression reason of a marketing send to a contact that has not confirmed. */
export const UNCONFIRMED = "unconfirmed";
