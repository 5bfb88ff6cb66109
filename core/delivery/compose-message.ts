import type { DkimSigningKey, OutgoingMessage } from "./mail-transport.js";
import type { EmailSend } from "./model.js";
import { messageIdFor } from "./model.js";

/**
 * The message of a send: our Message-ID, both bodies, and the one-click unsubscribe headers of
 * RFC 8058 when the send has an unsubscribe page (mailbox providers show their own button).
 */
export function composeMessage(send: EmailSend, dkim: DkimSigningKey | null): OutgoingMessage {
  const unsubscribeUrl = send.payload.unsubscribeUrl;
  return {
    messageId: send.messageId ?? messageIdFor(send),
    from: send.sender,
    to: send.recipientEmail,
    replyTo: send.replyTo,
    subject: send.subject,
    html: send.html,
    text: send.text,
    headers: unsubscribeUrl ? { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {},
    dkim,
    attachments: send.payload.attachments ?? [],
  };
}
