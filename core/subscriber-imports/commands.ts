import * as t from "io-ts";
import { boundedText, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { toJsonSchema, withSchema } from "../shared/json-schema.js";
import { DuplicateStrategyCodec, OptInModeCodec } from "../subscribers/commands.js";
import { MAX_IMPORT_ROWS } from "./model.js";
import { ImportRowCodec } from "./rows.js";

/**
 * POST /subscribers/imports (compat-reference §4). The rows are only checked to be objects here:
 * each is read when its chunk is processed, and a row that is not a valid contact fails on its
 * own with a reason (failedReasons) instead of failing the request. The row count (1 to 5,000) is
 * the use case's rule (400).
 */
const RowObject = new t.Type<Record<string, unknown>, Record<string, unknown>, unknown>(
  "ImportRowObject",
  (u): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u),
  (u, c) => (typeof u === "object" && u !== null && !Array.isArray(u) ? t.success(u as Record<string, unknown>) : t.failure(u, c, "must be an object")),
  t.identity,
);

const ImportRows = withSchema(t.array(RowObject, "ImportRows"), { type: "array", minItems: 1, maxItems: MAX_IMPORT_ROWS, items: toJsonSchema(ImportRowCodec) });

export const CreateImportCommand = t.exact(
  t.intersection([
    t.type({ subscribers: ImportRows }),
    t.partial({
      duplicateStrategy: optional(DuplicateStrategyCodec),
      fileName: optional(t.union([boundedText(255), t.null])),
      /** Lists (IDs) every added or updated contact joins. */
      listIds: optional(t.array(TrimmedNonEmpty)),
      enrollInSequences: optional(t.boolean),
      optInMode: optional(OptInModeCodec),
      /** The same key returns the import it created first (`deduplicated: true`). */
      idempotencyKey: optional(boundedText(255)),
      // Accepted for compatibility: SMS consent is not imported yet.
      defaultPhoneCountry: optional(t.union([t.string, t.null])),
      smsConsent: optional(t.boolean),
    }),
  ]),
  "CreateImportCommand",
);
export type CreateImportCommand = t.TypeOf<typeof CreateImportCommand>;

export const ImportPath = t.type({ importId: TrimmedNonEmpty }, "ImportPath");
