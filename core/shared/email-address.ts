import isEmail from "validator/lib/isEmail.js";

/** RFC 5321's limit on a forward path, which every stored address must fit. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * The one email address rule (codecs, imports, From and Reply-To parsing): validator's isEmail,
 * which holds the dot-atom rules (no leading, trailing or double dots), domain labels (no hyphen
 * at either end, at most 63 characters, an alphabetic TLD) and the 64-character local part.
 * Internationalised addresses (UTF-8 local parts, IDN domains) are accepted: contacts imported
 * from other platforms have them, and a relay that cannot carry them fails that one send
 * visibly rather than losing the contact. Quoted local parts and IP literals are refused: they
 * are almost never real mailboxes, and quoted ones may carry spaces and control characters.
 */
export function isEmailAddress(address: string): boolean {
  return (
    address.length <= MAX_EMAIL_LENGTH &&
    !address.includes('"') &&
    isEmail.default(address, { allow_utf8_local_part: true, allow_ip_domain: false, require_tld: true })
  );
}

/** The address as stored (trimmed and lower-cased), or null when it is not one. */
export function normaliseEmailAddress(text: string): string | null {
  const address = text.trim().toLowerCase();
  return isEmailAddress(address) ? address : null;
}
