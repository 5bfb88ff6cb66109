import { normaliseEmailAddress } from "../shared/email-address.js";

/** `Name <email>` or a bare `email`, as senders write From and Reply-To; null when neither. */
export function parseMailbox(text: string): { email: string; name: string | null } | null {
  const trimmed = text.trim();
  const named = /^(?:"([^"]*)"|([^<>"]*?))\s*<([^<>]+)>$/.exec(trimmed);
  if (named) {
    const email = normaliseEmailAddress(named[3]!);
    return email === null ? null : { email, name: (named[1] ?? named[2] ?? "").trim() || null };
  }
  const email = normaliseEmailAddress(trimmed);
  return email === null ? null : { email, name: null };
}
