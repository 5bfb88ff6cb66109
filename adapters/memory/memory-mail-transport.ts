import type { MailTransport, OutgoingMessage, SentMessage } from "../../core/delivery/mail-transport.js";
import { MimeBuilder } from "../smtp/mime-builder.js";

export interface CapturedMessage {
  readonly message: OutgoingMessage;
  /** The complete MIME source, as an SMTP relay would have received it. */
  readonly raw: string;
}

/** MAIL_URL `memory:`: messages are kept in this process for tests and embedders to read. */
export class MemoryMailTransport implements MailTransport {
  /** Nothing waits on a relay here: a few at once, as over SMTP. */
  readonly inFlight = 10;
  private readonly captured: CapturedMessage[] = [];
  private readonly mime = new MimeBuilder();
  /** Set by a test to make the next sends fail as a relay outage would. */
  failWith: Error | null = null;
  /** Recipients the relay refuses (the send fails as a 5xx to RCPT TO would). */
  readonly refused = new Set<string>();

  get messages(): readonly CapturedMessage[] {
    return this.captured;
  }

  async send(message: OutgoingMessage): Promise<SentMessage> {
    if (this.failWith) throw this.failWith;
    if (this.refused.has(message.to)) throw new Error(`550 5.1.1 <${message.to}>: Recipient address rejected`);
    const { messageId, raw } = await this.mime.build(message);
    this.captured.push({ message, raw: raw.toString("utf8") });
    return { messageId, accepted: [message.to], rejected: [], response: "250 kept in memory" };
  }

  clear(): void {
    this.captured.length = 0;
  }

  async close(): Promise<void> {}
}
