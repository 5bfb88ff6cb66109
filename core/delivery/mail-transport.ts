import type { Attachment, MailAddress } from "./model.js";
import { token } from "../shared/token.js";

/** The key a message is DKIM-signed with: its domain's selector and private key (PEM). */
export interface DkimSigningKey {
  readonly domainName: string;
  readonly keySelector: string;
  readonly privateKey: string;
}

/** One composed message; the transport turns it into MIME and hands it over. */
export interface OutgoingMessage {
  /** `<id@domain>`, chosen by us and stored on the send. */
  readonly messageId: string;
  readonly from: MailAddress;
  readonly to: string;
  readonly replyTo?: string | null | undefined;
  readonly subject: string;
  readonly html?: string | null | undefined;
  readonly text?: string | null | undefined;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly dkim?: DkimSigningKey | null | undefined;
  readonly attachments?: readonly Attachment[] | undefined;
}

export interface SentMessage {
  readonly messageId: string;
  readonly accepted: readonly string[];
  readonly rejected: readonly string[];
  /** The relay's last answer (an SMTP reply line, or where the message was written). */
  readonly response: string;
}

/** Where mail goes (MAIL_URL): an SMTP relay, a directory of .eml files, or memory. */
export interface MailTransport {
  /**
   * Messages worth handing over at once (an SMTP pool's connections, each with the next one
   * waiting): a delivery job keeps no more in flight, so it holds no more bodies than that.
   */
  readonly inFlight: number;
  /** Rejects when the message could not be handed over (a retry may succeed). */
  send(message: OutgoingMessage): Promise<SentMessage>;
  close(): Promise<void>;
}
export const MailTransport = token<MailTransport>("lifecycle.MailTransport");
