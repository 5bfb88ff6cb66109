import type { Subscriber } from "../subscribers/model.js";
import type { EnrollmentContext } from "./enrollment.js";
import type { Sequence } from "./model.js";
import { asText, valueAt } from "./property-filters.js";

/** The prefixes of an `enrollmentFieldPath` that name where the value is read. */
const EVENT_PREFIX = "event.";
const CONTACT_PREFIXES = ["customAttributes.", "subscriber.", "contact."];

/**
 * The value a matching_field sequence tells a contact's enrollments apart by: `event.x` from
 * the trigger event's properties, `customAttributes.x` (or `subscriber.x`, `contact.x`) from the
 * contact's attributes, a bare path from the event first, then the contact. Null when absent.
 */
export function matchingValue(path: string, contact: Subscriber, context: EnrollmentContext): string | null {
  const event = context.event?.properties ?? {};
  const attributes = contact.customAttributes as Readonly<Record<string, unknown>>;
  const present = (value: unknown): boolean => value !== undefined && value !== null && value !== "";
  let value: unknown;
  if (path.startsWith(EVENT_PREFIX)) value = valueAt(event, path.slice(EVENT_PREFIX.length));
  else {
    const contactPrefix = CONTACT_PREFIXES.find((prefix) => path.startsWith(prefix));
    if (contactPrefix) value = valueAt(attributes, path.slice(contactPrefix.length));
    else {
      value = valueAt(event, path);
      if (!present(value)) value = valueAt(attributes, path);
    }
  }
  return present(value) ? asText(value) : null;
}

/**
 * cyrb53 (a public-domain 53-bit string hash), seeded: two seeds make the key's ~106 bits, so two
 * values of one sequence never share a key in practice.
 */
function cyrb53(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** What keeps a contact from entering a sequence twice: the enrollment's `entryKey`, and the value it shows. */
export interface EntryKey {
  readonly entryKey: string;
  /** The matching_field value (the enrollment's `enrollmentKey`), null for the other modes. */
  readonly enrollmentKey: string | null;
}

/**
 * unlimited and one_time sequences take a contact once at a time (one_time: once ever): the key
 * is the contact. matching_field sequences take it once per value of their field (a contact may
 * run once for each order): the key is a hash of the contact and the value, short enough for the
 * column; null when the value is missing (the contact does not enter).
 */
export function entryKeyFor(sequence: Sequence, contact: Subscriber, context: EnrollmentContext): EntryKey | null {
  if (sequence.enrollmentMode !== "matching_field" || sequence.enrollmentFieldPath === null) return { entryKey: contact.id, enrollmentKey: null };
  const value = matchingValue(sequence.enrollmentFieldPath, contact, context);
  if (value === null) return null;
  const text = `${contact.id}\u0000${value}`;
  return { entryKey: `mf_${cyrb53(text, 1)}_${cyrb53(text, 2)}`, enrollmentKey: value };
}

/** A finished (or cancelled) run frees its key only on unlimited sequences: one_time never takes the contact again, matching_field never the same value. */
export const keepsEntryKey = (sequence: Pick<Sequence, "enrollmentMode">): boolean => sequence.enrollmentMode !== "unlimited";
