import { createPrivateKey, type KeyObject } from "node:crypto";
import type { SendMailOptions } from "nodemailer";
import type { OutgoingMessage } from "../../core/delivery/mail-transport.js";

const MAX_SIGNING_KEYS = 1_000;
const signingKeys = new Map<string, KeyObject>();

/**
 * The DKIM key parsed once: signing with a PEM string parses it every time, which costs more
 * than the RSA signature itself (nodemailer hands the key to crypto's sign, which takes either).
 */
function signingKey(pem: string): KeyObject {
  let key = signingKeys.get(pem);
  if (key === undefined) {
    key = createPrivateKey(pem);
    if (signingKeys.size >= MAX_SIGNING_KEYS) signingKeys.clear();
    signingKeys.set(pem, key);
  }
  return key;
}

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
    ...(message.dkim
      ? {
          dkim: {
            domainName: message.dkim.domainName,
            keySelector: message.dkim.keySelector,
            privateKey: signingKey(message.dkim.privateKey) as unknown as string,
          },
        }
      : {}),
    attachments: (message.attachments ?? []).map((attachment) => ({
      filename: attachment.filename,
      content: attachment.contentBase64,
      encoding: "base64",
      ...(attachment.contentType ? { contentType: attachment.contentType } : {}),
      ...(attachment.contentId ? { cid: attachment.contentId } : {}),
    })),
  };
}
