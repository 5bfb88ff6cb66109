import type { TokenSigner } from "../ports/token-signer.js";

/** One purpose per kind, so a pixel token can never be replayed as a click or an unsubscribe. */
const OPEN = "tracking.open";
const CLICK = "tracking.click";
const UNSUBSCRIBE = "tracking.unsubscribe";

/** Only web links are tracked: anything else could turn the redirect into a `javascript:` or `data:` launcher. */
export function isTrackableUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * The signed tokens of an email's tracking links. They carry only the send's ID (and, for a
 * click, the destination), with short keys to keep links short; they do not expire, as an
 * email is read and unsubscribed from long after it was sent.
 */
export class TrackingTokens {
  constructor(private readonly signer: TokenSigner) {}

  open(sendId: string): string {
    return this.signer.sign(OPEN, { s: sendId });
  }

  /** Null for a destination that is not an http(s) URL. */
  click(sendId: string, url: string): string | null {
    return isTrackableUrl(url) ? this.signer.sign(CLICK, { s: sendId, u: url }) : null;
  }

  unsubscribe(sendId: string): string {
    return this.signer.sign(UNSUBSCRIBE, { s: sendId });
  }

  readOpen(token: string, now: Date): { sendId: string } | null {
    return sendOf(this.signer.verify(OPEN, token, now));
  }

  /** The send and the destination this server signed; never a URL the token's bearer chose. */
  readClick(token: string, now: Date): { sendId: string; url: string } | null {
    const payload = this.signer.verify(CLICK, token, now);
    const send = sendOf(payload);
    const url = payload?.u;
    return send && typeof url === "string" && isTrackableUrl(url) ? { sendId: send.sendId, url } : null;
  }

  readUnsubscribe(token: string, now: Date): { sendId: string } | null {
    return sendOf(this.signer.verify(UNSUBSCRIBE, token, now));
  }
}

function sendOf(payload: Record<string, unknown> | null): { sendId: string } | null {
  const sendId = payload?.s;
  return typeof sendId === "string" && sendId !== "" ? { sendId } : null;
}
