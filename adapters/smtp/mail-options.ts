import type { SendMailOptions } from "nodemailer";
import type { OutgoingMessage } from "../../core/delivery/mail-transport.js";

/** Our message as nodemailer's mail options: nodemailer builds the MIME tree and signs it. */
export function toMailOptions(message: OutgoingMessage): SendMailOptions {
  return {
    messageId: message.messageId,
    from: message.from.name ? { name: message.from.name, address: message.from.email } : message.from.email,
    to: message.to,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    ...(message.html ? { html: message.html } : {}),
    ...(message.text ? { text: message.text } : {}),
    headers: { ...(message.headers ?? {}) },
    ...(message.dkim ? { dkim: { domainName: message.dkim.domainName, keySelector: message.dkim.keySelector, privateKey: message.dkim.privateKey } } : {}),
    attachments: (message.attachments ?? []).map((attachment) => ({
      filename: attachment.filename,
      content: attachment.contentBase64,
      encoding: "base64",
      ...(attachment.contentType ? { contentType: attachment.contentType } : {}),
      ...(attachment.contentId ? { cid: attachment.contentId } : {}),
    })),
  };
}
