import * as t from "io-ts";
import { Email, IsoDate, optional } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";
import { CustomAttributes, SubscriberStatusCodec, TimeZone } from "../subscribers/commands.js";
import { RESERVED_ATTRIBUTE, type Attributes } from "../subscribers/model.js";
import { normalizeTags, type ContactInput } from "../subscribers/save-contact.js";
import { FAIL_REASONS, type ChunkTally } from "./model.js";

/**
 * One row of an import, as the API receives it and the CLI builds it from a CSV record. Rows are
 * read one by one when their chunk is processed: a row that is not a valid contact fails with a
 * reason and never fails the request or the import.
 */

/** Text of at most `max` characters (the column's width); blank means "not given". */
const text = (max: number) =>
  withSchema(
    new t.Type<string | undefined, string, unknown>(
      `Text(..${max})`,
      (u): u is string => typeof u === "string",
      (u, c) => {
        const value = typeof u === "number" && Number.isFinite(u) ? String(u) : u;
        if (typeof value !== "string") return t.failure(u, c, "must be a string");
        const trimmed = value.trim();
        if (trimmed.length > max) return t.failure(u, c, `must be at most ${max} characters`);
        return t.success(trimmed === "" ? undefined : trimmed);
      },
      (a) => a ?? "",
    ),
    { type: "string", maxLength: max },
  );

/**
 * The fields of a row and their codecs: the one description behind the documented shape and the
 * reading of every row (field by field, which is several times faster than decoding the whole
 * object for the hundreds of thousands of rows of a big file).
 */
const FIELDS = {
  email: t.string,
  externalId: text(255),
  firstName: text(255),
  lastName: text(255),
  timezone: TimeZone,
  phone: text(32),
  status: SubscriberStatusCodec,
  tags: t.array(t.string),
  customAttributes: CustomAttributes,
  createdAt: IsoDate,
} as const;
type Fields = { -readonly [K in keyof typeof FIELDS]?: t.TypeOf<(typeof FIELDS)[K]> };

/**
 * The documented shape of a row (email is required to import; phone-only rows fail). A null
 * field is not given, except timezone, which null clears as in a single create.
 */
export const ImportRowCodec = t.exact(
  t.partial(Object.fromEntries(Object.entries(FIELDS).map(([name, codec]) => [name, optional(t.union([codec, t.null]))])) as t.Props),
  "ImportRow",
);

/** Time zones already checked (constructing a formatter per row would dominate a big import); bounded. */
const knownZones = new Map<string, boolean>();
const MAX_KNOWN_ZONES = 2000;

/** The row's known fields, decoded; null when one of them is not valid. */
function decodeFields(data: Record<string, unknown>): Fields | null {
  const fields: Fields = {};
  for (const name in data) {
    if (!Object.hasOwn(FIELDS, name)) continue;
    const value = data[name];
    if (value === undefined || value === null) continue;
    if (name === "timezone" && typeof value === "string" && knownZones.get(value) === false) return null;
    const decoded = FIELDS[name as keyof typeof FIELDS].decode(value);
    if (name === "timezone" && typeof value === "string") {
      if (knownZones.size >= MAX_KNOWN_ZONES) knownZones.clear();
      knownZones.set(value, decoded._tag === "Right");
    }
    if (decoded._tag === "Left") return null;
    (fields as Record<string, unknown>)[name] = decoded.right;
  }
  return fields;
}

/** A row of a chunk, and whether its email appeared earlier in the same import. */
export interface ChunkRow {
  readonly data: unknown;
  readonly duplicate: boolean;
}

/** A row that is a contact: its email is valid and its tags (undefined when not given) normalised. */
export type ContactRow = ContactInput & { readonly email: string };

/** What a row of a chunk turns out to be. */
export type RowReading =
  | { readonly kind: "contact"; readonly contact: ContactRow }
  | { readonly kind: "failed"; readonly reason: string }
  /** Its email appeared earlier in the same import. */
  | { readonly kind: "duplicate" };

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u);

/** The row's email, lower-cased, when it holds a valid one. */
export function emailOf(data: unknown): string | null {
  if (!isRecord(data) || typeof data.email !== "string") return null;
  const email = Email.decode(data.email);
  return email._tag === "Right" ? email.right : null;
}

const failed = (reason: string): RowReading => ({ kind: "failed", reason });
const DUPLICATE: RowReading = { kind: "duplicate" };

/** Reads the rows of a chunk, in order. */
export const readChunk = (rows: readonly ChunkRow[]): RowReading[] => rows.map((row) => (row.duplicate ? DUPLICATE : readRow(row.data)));

/** Reads one row: the contact it describes, or why it cannot be imported. */
export function readRow(data: unknown): RowReading {
  if (!isRecord(data)) return failed(FAIL_REASONS.invalidField);
  const raw = data.email;
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return failed(FAIL_REASONS.missingEmail);
  const email = emailOf(data);
  if (!email) return failed(FAIL_REASONS.invalidEmail);
  const row = decodeFields(data);
  if (!row) return failed(FAIL_REASONS.invalidField);
  if (row.customAttributes && Object.hasOwn(row.customAttributes, RESERVED_ATTRIBUTE)) return failed(FAIL_REASONS.reservedAttribute);
  const tags = row.tags === undefined ? undefined : normalizeTags(row.tags);
  if (tags?._tag === "Left") return failed(FAIL_REASONS.invalidTag);
  return {
    kind: "contact",
    contact: {
      email,
      externalId: row.externalId,
      firstName: row.firstName,
      lastName: row.lastName,
      phone: row.phone,
      timezone: data.timezone === null ? null : row.timezone,
      status: row.status,
      customAttributes: row.customAttributes as Attributes | undefined,
      // Absent tags leave an overwritten contact's tags alone, as in SaveContact.
      tags: tags?.right,
      createdAt: row.createdAt,
    },
  };
}

/**
 * Marks the rows whose email was already seen in this import (`seen` spans the whole import and
 * is updated) and counts the chunk's rows, emails and duplicates.
 */
export function tallyRows(data: readonly unknown[], seen: Set<string>): { readonly rows: ChunkRow[]; readonly tally: ChunkTally } {
  let emails = 0;
  let duplicates = 0;
  const rows = data.map((row): ChunkRow => {
    const email = emailOf(row);
    if (!email) return { data: row, duplicate: false };
    emails += 1;
    if (seen.has(email)) {
      duplicates += 1;
      return { data: row, duplicate: true };
    }
    seen.add(email);
    return { data: row, duplicate: false };
  });
  return { rows, tally: { rows: data.length, emails, duplicates } };
}
