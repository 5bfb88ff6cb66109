import * as t from "io-ts";
import { withSchema, type JsonSchema } from "../../core/shared/json-schema.js";

/** A string codec with its own documentation (a fresh instance: `t.string` itself stays plain). */
const documentedString = (name: string, schema: JsonSchema) =>
  withSchema(new t.Type<string, string, unknown>(name, t.string.is, t.string.validate, t.identity), { type: "string", ...schema });

export const Timestamp = documentedString("Timestamp", { format: "date-time" });
export const NullableTimestamp = t.union([Timestamp, t.null]);
export const NullableString = t.union([t.string, t.null]);
export const Id = documentedString("Id", { description: "Opaque ID: a type prefix, '_' and a time-sortable random part" });
