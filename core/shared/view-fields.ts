import * as t from "io-ts";
import { withSchema, type JsonSchema } from "./json-schema.js";

/** A string codec with its own documentation (a fresh instance: `t.string` itself stays plain). */
const documentedString = (name: string, schema: JsonSchema) =>
  withSchema(new t.Type<string, string, unknown>(name, t.string.is, t.string.validate, t.identity), { type: "string", ...schema });

/** Fields shared by the view codecs (the API's response records). */
export const Timestamp = documentedString("Timestamp", { format: "date-time" });
export const NullableTimestamp = t.union([Timestamp, t.null]);
export const NullableString = t.union([t.string, t.null]);
export const Id = documentedString("Id", { description: "Opaque ID: a type prefix, '_' and a time-sortable random part" });

/**
 * A view: the record the API returns, declared once. Exact, so encoding it drops any field the
 * codec does not declare: the wire, the TypeScript type (`t.TypeOf`) and OpenAPI are one thing.
 */
export const view = <P extends t.Props>(props: P, name?: string) => t.exact(t.type(props), name);

/** A view with optional fields (absent, not null, when unknown). */
export const viewWithOptional = <P extends t.Props, O extends t.Props>(props: P, optional: O, name?: string) =>
  t.exact(t.intersection([t.type(props), t.partial(optional)]), name);

/** The offset pagination of compat list routes (campaigns, templates): see core/shared/pagination.ts. */
export const OffsetPaginationView = view({ limit: t.number, offset: t.number, count: t.number, total: t.number, hasMore: t.boolean }, "OffsetPagination");
