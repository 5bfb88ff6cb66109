/**
 * The mailbox provider behind an address, classified when a send is made (stored with the
 * send) so metrics can be filtered by provider. Only the big consumer providers are named;
 * company domains hosted by Google or Microsoft stay `other` (no DNS lookup at send time).
 */
export const MAILBOX_PROVIDERS = ["gmail", "microsoft", "yahoo", "icloud", "orange", "other"] as const;
export type MailboxProvider = (typeof MAILBOX_PROVIDERS)[number];

const EXACT: Readonly<Record<string, MailboxProvider>> = {
  "gmail.com": "gmail",
  "googlemail.com": "gmail",
  "msn.com": "microsoft",
  "windowslive.com": "microsoft",
  "passport.com": "microsoft",
  "ymail.com": "yahoo",
  "rocketmail.com": "yahoo",
  // AOL mail runs on Yahoo's infrastructure (same filtering, same feedback loop).
  "aim.com": "yahoo",
  "icloud.com": "icloud",
  "me.com": "icloud",
  "mac.com": "icloud",
  "orange.fr": "orange",
  "wanadoo.fr": "orange",
};

/** Brands present under many country domains (outlook.fr, hotmail.co.uk, yahoo.com.br...). */
const BY_BRAND: Readonly<Record<string, MailboxProvider>> = {
  outlook: "microsoft",
  hotmail: "microsoft",
  live: "microsoft",
  yahoo: "yahoo",
  aol: "yahoo",
};

/** The country and generic endings those brands use: com, fr, co.uk, com.au... */
const BRAND_SUFFIX = /^(com|net|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})$/;

export function mailboxProviderOf(email: string): MailboxProvider {
  const at = email.lastIndexOf("@");
  if (at < 0) return "other";
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, "");
  const exact = EXACT[domain];
  if (exact) return exact;
  const dot = domain.indexOf(".");
  if (dot < 0) return "other";
  const brand = BY_BRAND[domain.slice(0, dot)];
  return brand && BRAND_SUFFIX.test(domain.slice(dot + 1)) ? brand : "other";
}
