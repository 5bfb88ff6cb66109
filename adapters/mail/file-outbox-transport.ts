import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MailTransport, OutgoingMessage, SentMessage } from "../../core/delivery/mail-transport.js";
import { MimeBuilder } from "../smtp/mime-builder.js";

/** A Message-ID as a file name: `<send_01J...@example.com>` -> `send_01J...@example.com`. */
const fileNameOf = (messageId: string): string => messageId.replace(/^<|>$/g, "").replace(/[^A-Za-z0-9@._-]/g, "_");

/**
 * MAIL_URL `file:<dir>`: each message becomes one `.eml` file, written to a temporary name and
 * renamed, so a reader of the directory never sees half a message.
 */
export class FileOutboxTransport implements MailTransport {
  /** A few files written at once. */
  readonly inFlight = 10;
  private readonly mime = new MimeBuilder();

  constructor(private readonly directory: string) {}

  async send(message: OutgoingMessage): Promise<SentMessage> {
    const { messageId, raw } = await this.mime.build(message);
    await mkdir(this.directory, { recursive: true });
    const path = join(this.directory, `${fileNameOf(messageId)}.eml`);
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, raw, { mode: 0o600 });
    await rename(temporary, path);
    return { messageId, accepted: [message.to], rejected: [], response: `written to ${path}` };
  }

  async close(): Promise<void> {}
}
