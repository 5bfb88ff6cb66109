import nodemailer from "nodemailer";
import type { OutgoingMessage } from "../../core/delivery/mail-transport.js";
import { toMailOptions } from "./mail-options.js";

/** Builds a message's complete MIME source (DKIM-signed when it has a key), without sending it. */
export class MimeBuilder {
  private readonly transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

  async build(message: OutgoingMessage): Promise<{ messageId: string; raw: Buffer }> {
    const info = await this.transporter.sendMail(toMailOptions(message));
    return { messageId: info.messageId, raw: info.message as Buffer };
  }
}
