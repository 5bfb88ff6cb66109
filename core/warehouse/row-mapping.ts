import { Email } from "../shared/codecs.js";
import type { AttributeValue, Attributes } from "../subscribers/model.js";
import type { SyncMapping } from "./model.js";

/** A warehouse row, as its columns' JSON values. */
export type WarehouseValues = Readonly<Record<string, AttributeValue>>;

/** What the mapping makes of a row. */
export type MappedRow =
  | {
      readonly kind: "contact";
      /** Lower-cased. */
      readonly email: string;
      /** Null when the column is not mapped or the value is blank: the contact's name is left alone. */
      readonly firstName: string | null;
      /** Every mapped attribute; a NULL column gives null. */
      readonly attributes: Attributes;
    }
  /** Cannot be a contact (missing or invalid email): counted as skipped. */
  | { readonly kind: "skipped"; readonly reason: string }
  /** A contact whose values cannot be stored: counted as failed. */
  | { readonly kind: "failed"; readonly reason: string };

const MAX_FIRST_NAME = 255;

/** A column's value by its exact name, else by its name in any case (Postgres folds unquoted names to lower case). */
export function columnValue(values: WarehouseValues, column: string): AttributeValue | undefined {
  if (Object.hasOwn(values, column)) return values[column];
  const lower = column.toLowerCase();
  for (const key of Object.keys(values)) if (key.toLowerCase() === lower) return values[key];
  return undefined;
}

const asText = (value: AttributeValue | undefined): string | null =>
  typeof value === "string" ? value.trim() : typeof value === "number" || typeof value === "boolean" ? String(value) : null;

/** Applies the sync's mapping to one row. */
export function mapRow(values: WarehouseValues, mapping: SyncMapping): MappedRow {
  const rawEmail = columnValue(values, mapping.emailColumn);
  const emailText = asText(rawEmail ?? null);
  if (emailText === null || emailText === "") return { kind: "skipped", reason: `missing email (column ${mapping.emailColumn} is empty)` };
  const email = Email.decode(emailText);
  if (email._tag === "Left") return { kind: "skipped", reason: `invalid email address: ${JSON.stringify(emailText.slice(0, 100))}` };

  let firstName: string | null = null;
  if (mapping.firstNameColumn !== null) {
    const value = columnValue(values, mapping.firstNameColumn);
    const text = asText(value ?? null);
    if (value !== undefined && value !== null && text === null) return { kind: "failed", reason: `first name (column ${mapping.firstNameColumn}) is not text` };
    if (text !== null && text.length > MAX_FIRST_NAME)
      return { kind: "failed", reason: `first name (column ${mapping.firstNameColumn}) is longer than ${MAX_FIRST_NAME} characters` };
    firstName = text === "" ? null : text;
  }

  const attributes: Record<string, AttributeValue> = {};
  for (const { column, attribute } of mapping.attributes) attributes[attribute] = columnValue(values, column) ?? null;
  return { kind: "contact", email: email.right, firstName, attributes };
}

/** What the sync compares a row with: the stored contact of that email. */
export interface StoredContact {
  readonly firstName: string | null;
  readonly customAttributes: Attributes;
  /** The sync's lists the contact is a member of. */
  readonly listIds: ReadonlySet<string>;
}

/** JSON with object keys sorted, so that equal values compare equal whatever their key order. */
function canonical(value: AttributeValue | undefined): string {
  if (value === undefined || value === null) return "null";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, AttributeValue>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

export const sameValue = (a: AttributeValue | undefined, b: AttributeValue | undefined): boolean => canonical(a) === canonical(b);

/**
 * Whether importing the row would change nothing: the contact exists, has the row's first name
 * (when the row gives one), every mapped attribute has the row's value (a NULL column matches an
 * absent or null attribute), and it is a member of every list of the sync. Such rows are counted
 * as unchanged and not imported.
 */
export function isUnchanged(row: Extract<MappedRow, { kind: "contact" }>, stored: StoredContact | undefined, listIds: readonly string[]): boolean {
  if (!stored) return false;
  if (row.firstName !== null && row.firstName !== stored.firstName) return false;
  for (const [attribute, value] of Object.entries(row.attributes)) {
    if (!sameValue(value, stored.customAttributes[attribute])) return false;
  }
  return listIds.every((listId) => stored.listIds.has(listId));
}
