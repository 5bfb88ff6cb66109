import nodemailer from "nodemailer";
import type { MailTransport, OutgoingMessage, SentMessage } from "../../core/delivery/mail-transport.js";
import { toMailOptions } from "./mail-options.js";

/** Connection limits of the pool: a few connections, each reused for many messages. */
const POOL = { maxConnections: 5, maxMessages: 100 } as const;

/** Where an `smtp://` or `smtps://` MAIL_URL points, as nodemailer's options. */
export function smtpServerOf(mailUrl: string) {
  const url = new URL(mailUrl);
  const secure = url.protocol === "smtps:";
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
  };
}

/**
 * Connects to the relay of an `smtp://` or `smtps://` MAIL_URL, says EHLO (upgrading with
 * STARTTLS when offered) and logs in when the URL has credentials; rejects with the reason.
 */
export async function verifySmtpRelay(mailUrl: string, timeoutMs = 10_000): Promise<void> {
  const transporter = nodemailer.createTransport({
    ...smtpServerOf(mailUrl),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    await transporter.verify();
  } finally {
    transporter.close();
  }
}

/**
 * Mail through an SMTP relay (`smtp://[user:pass@]host:port`, `smtps://` for implicit TLS), over
 * a pool of reused connections. A plain `smtp://` relay that offers STARTTLS is upgraded.
 */
export class SmtpMailTransport implements MailTransport {
  /** Each connection of the pool writing one message with a few ready (a send waits for its outcome to be written as well). */
  readonly inFlight = POOL.maxConnections * 4;
  private readonly transporter;

  constructor(mailUrl: string) {
    this.transporter = nodemailer.createTransport({ pool: true, ...POOL, ...smtpServerOf(mailUrl) });
  }

  async send(message: OutgoingMessage): Promise<SentMessage> {
    const info = await this.transporter.sendMail(toMailOptions(message));
    const addresses = (list: ReadonlyArray<string | { address: string }> | undefined) =>
      (list ?? []).map((entry) => (typeof entry === "string" ? entry : entry.address));
    return { messageId: info.messageId, accepted: addresses(info.accepted), rejected: addresses(info.rejected), response: info.response };
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}
