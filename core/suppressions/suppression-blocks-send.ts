import { isServiceMail, type EmailSend } from "../delivery/model.js";
import type { SuppressionReason } from "./model.js";

/**
 * Whether a suppression stops this send. Bounces, complaints and manual blocks stop every
 * message; an unsubscribe stops marketing mail but not a transactional message (a password
 * reset still reaches someone who left the newsletter).
 */
export function suppressionBlocks(reason: SuppressionReason, send: Pick<EmailSend, "emailType" | "sendKind">): boolean {
  if (reason !== "unsubscribe") return true;
  return !isServiceMail(send);
}
