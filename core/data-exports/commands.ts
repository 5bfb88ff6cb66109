import * as t from "io-ts";
import { IsoDate, nullable, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { withSchema, type JsonSchema } from "../shared/json-schema.js";
import { cursorPageFields } from "../shared/pagination.js";
import { DATASETS, FREQUENCIES, MAX_NAME_LENGTH, PROVIDERS } from "./model.js";
import { MAX_PATH_PREFIX_LENGTH } from "./path-prefix.js";

/**
 * Inputs of the data export routes. The codecs check types and enumerations (422: an unknown
 * dataset, a number for a name); the rules (lengths, formats, combinations) are the use cases'
 * (400 with `code: invalid_input`), so each gets its own readable sentence.
 */
const text = (name: string, schema: JsonSchema) =>
  withSchema(
    new t.Type<string, string, unknown>(name, t.string.is, (u, c) => (typeof u === "string" ? t.success(u) : t.failure(u, c, "must be a string")), t.identity),
    { type: "string", ...schema },
  );

export const DatasetCodec = oneOf(DATASETS, "Dataset");
export const FrequencyCodec = oneOf(FREQUENCIES, "Frequency");
export const ProviderCodec = oneOf(PROVIDERS, "Provider");

const Name = text("DataExportName", { maxLength: MAX_NAME_LENGTH });
const Bucket = text("BucketName", { description: "bucket name, not a URL" });
const Region = { type: "string", description: "required for s3 without endpoint; default auto for gcs and custom endpoints" };
const Endpoint = { type: "string", format: "uri", description: "HTTPS origin of an S3-compatible service; not with gcs" };
const PathPrefix = {
  type: "string",
  maxLength: MAX_PATH_PREFIX_LENGTH,
  description: "folder in the bucket: leading and trailing slashes removed; letters, digits, / and ! _ . * ' ( ) = -; no .. segment",
};
const AccessKeyId = text("AccessKeyId", { description: "for gcs the HMAC access ID" });
const SecretAccessKey = text("SecretAccessKey", { description: "for gcs the HMAC secret; stored encrypted, never returned", writeOnly: true });
const StartFrom = { type: "string", format: "date-time", description: "at most 30 days ago; default now" };

export const CreateDataExportCommand = t.exact(
  t.intersection([
    t.type({
      name: required(Name),
      // A keyof codec reports a missing value as required, and a wrong one with its choices.
      provider: ProviderCodec,
      bucket: required(Bucket),
      accessKeyId: required(AccessKeyId),
      secretAccessKey: required(SecretAccessKey),
    }),
    t.partial({
      region: optional(nullable(t.string, Region)),
      endpoint: optional(nullable(t.string, Endpoint)),
      pathPrefix: optional(nullable(t.string, PathPrefix)),
      datasets: optional(t.array(DatasetCodec)),
      frequency: optional(FrequencyCodec),
      startFrom: optional(nullable(IsoDate, StartFrom)),
    }),
  ]),
  "CreateDataExportCommand",
);
export type CreateDataExportCommand = t.TypeOf<typeof CreateDataExportCommand>;

/** Fixed at creation: changing them would move or mix the files already written. */
export const FIXED_FIELDS = ["provider", "bucket", "region", "endpoint", "pathPrefix", "datasets", "startFrom"] as const;
const fixed = withSchema(new t.Type<unknown, unknown, unknown>("FixedAtCreation", t.unknown.is, t.unknown.validate, t.identity), {
  description: "fixed at creation: refused with code invalid_input",
});

/** PATCH: rename, change the frequency, pause or resume, rotate the credentials (both keys together). */
export const UpdateDataExportCommand = t.exact(
  t.partial({
    name: optional(Name),
    frequency: optional(FrequencyCodec),
    isEnabled: optional(t.boolean),
    accessKeyId: optional(AccessKeyId),
    secretAccessKey: optional(SecretAccessKey),
    provider: fixed,
    bucket: fixed,
    region: fixed,
    endpoint: fixed,
    pathPrefix: fixed,
    datasets: fixed,
    startFrom: fixed,
  }),
  "UpdateDataExportCommand",
);
export type UpdateDataExportCommand = t.TypeOf<typeof UpdateDataExportCommand>;

export const DataExportPath = t.type({ id: TrimmedNonEmpty }, "DataExportPath");

export const ListRunsQuery = t.exact(t.partial(cursorPageFields), "ListDataExportRunsQuery");
export type ListRunsQuery = t.TypeOf<typeof ListRunsQuery>;
