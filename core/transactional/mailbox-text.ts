/** `Name <email>` or a bare `email`, as senders write From and Reply-To; null when neither. */
export function parseMailbox(text: string): { email: string; name: string | null } | null {
  const trimmed = text.trim();
  const named = /^(?:"([^"]*)"|([^<>"]*?))\s*<([^<>\s]+@[^<>\s]+)>$/.exec(trimmed);
  if (named) return { email: named[3]!.toLowerCase(), name: (named[1] ?? named[2] ?? "").trim() || null };
  return /^[^\s<>"]+@[^\s<>"]+\.[^\s<>"]+$/.test(trimmed) ? { email: trimmed.toLowerCase(), name: null } : null;
}
