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
  if (address.length > MAX_EMAIL_LENGTH) return false;
  if (isPlainAddress(address)) return true;
  return !address.includes('"') && isEmail.default(address, { allow_utf8_local_part: true, allow_ip_domain: false, require_tld: true });
}

/**
 * The plain ASCII addresses isEmail accepts, recognised by one expression: nearly every address
 * takes this path, and isEmail spends most of its time measuring bytes through URI encoding
 * (a tenth of a 100,000-row import). Dot-atom local part of isEmail's characters, labels without
 * a hyphen at either end and at most 63 characters, an alphabetic TLD: a subset of what isEmail
 * accepts (a property test holds it to that); anything else is left to isEmail.
 */
const PLAIN_ADDRESS = /^[a-z\d!#$%&'*+\-/=?^_`{|}~]+(?:\.[a-z\d!#$%&'*+\-/=?^_`{|}~]+)*@(?:[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?\.)+[a-z]{2,63}$/i;
const MAX_LOCAL_PART_LENGTH = 64;

export const isPlainAddress = (address: string): boolean => PLAIN_ADDRESS.test(address) && address.lastIndexOf("@") <= MAX_LOCAL_PART_LENGTH;

/** The address as stored (trimmed and lower-cased), or null when it is not one. */
export function normaliseEmailAddress(text: string): string | null {
  const address = text.trim().toLowerCase();
  return isEmailAddress(address) ? address : null;
}
