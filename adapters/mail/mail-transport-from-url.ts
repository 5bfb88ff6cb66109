import { resolve } from "node:path";
import type { MailTransport } from "../../core/delivery/mail-transport.js";
import { MemoryMailTransport } from "../memory/memory-mail-transport.js";
import { SmtpMailTransport } from "../smtp/smtp-mail-transport.js";
import { FileOutboxTransport } from "./file-outbox-transport.js";

/** The transport MAIL_URL names: `smtp://`, `smtps://`, `file:<dir>` or `memory:`. */
export function mailTransportFromUrl(mailUrl: string): MailTransport {
  if (mailUrl === "memory:" || mailUrl === "memory://") return new MemoryMailTransport();
  if (mailUrl.startsWith("file:")) {
    const path = mailUrl.startsWith("file://") ? new URL(mailUrl).pathname : mailUrl.slice("file:".length);
    if (!path) throw new Error("MAIL_URL file: needs a directory, e.g. file:./data/outbox");
    return new FileOutboxTransport(resolve(path));
  }
  if (mailUrl.startsWith("smtp://") || mailUrl.startsWith("smtps://")) return new SmtpMailTransport(mailUrl);
  throw new Error(`MAIL_URL must be smtp://, smtps://, file:<dir> or memory: (got ${mailUrl.split(":")[0]}:)`);
}
