import * as t from "io-ts";
import { IsoDate, nullable, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { toJsonSchema, withSchema, type JsonSchema } from "../shared/json-schema.js";
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

const ServiceAccountKeyInput = withSchema(
  new t.Type<unknown, unknown, unknown>(
    "ServiceAccountKey",
    (u): u is unknown => typeof u === "string" || (typeof u === "object" && u !== null && !Array.isArray(u)),
    (u, c) =>
      typeof u === "string" || (typeof u === "object" && u !== null && !Array.isArray(u))
        ? t.success(u)
        : t.failure(u, c, "must be the service account's JSON key: an object, or the key file's text as a string"),
    t.identity,
  ),
  {
    anyOf: [{ type: "object" }, { type: "string" }],
    description: "gcs only, instead of accessKeyId and secretAccessKey: a service account's JSON key (the file's content); stored encrypted, never returned",
    writeOnly: true,
  },
);

const createFields = {
  name: required(Name),
  // A keyof codec reports a missing value as required, and a wrong one with its choices.
  provider: ProviderCodec,
  bucket: required(Bucket),
};
const optionalCreateFields = t.partial({
  region: optional(nullable(t.string, Region)),
  endpoint: optional(nullable(t.string, Endpoint)),
  pathPrefix: optional(nullable(t.string, PathPrefix)),
  datasets: optional(t.array(DatasetCodec)),
  frequency: optional(FrequencyCodec),
  startFrom: optional(nullable(IsoDate, StartFrom)),
});

/** The spec's request: HMAC keys (S3, S3-compatible, and GCS through its XML API). */
export const HmacCreateDataExportCommand = t.exact(
  t.intersection([t.type({ ...createFields, accessKeyId: required(AccessKeyId), secretAccessKey: required(SecretAccessKey) }), optionalCreateFields]),
  "CreateDataExportCommand",
);
export type HmacCreateDataExportCommand = t.TypeOf<typeof HmacCreateDataExportCommand>;

/** GCS with a service account's JSON key instead of HMAC keys. */
export const ServiceAccountCreateDataExportCommand = t.exact(
  t.intersection([t.type({ ...createFields, serviceAccountKey: required(ServiceAccountKeyInput) }), optionalCreateFields]),
  "CreateDataExportWithServiceAccountCommand",
);
export type ServiceAccountCreateDataExportCommand = t.TypeOf<typeof ServiceAccountCreateDataExportCommand>;

export type CreateDataExportCommand = HmacCreateDataExportCommand | ServiceAccountCreateDataExportCommand;

const fieldFailure = (c: t.Context, key: string, value: unknown, message: string): t.ValidationError => ({
  value,
  context: [...c, { key, type: t.unknown, actual: value }],
  message,
});

/**
 * One of the two forms, chosen by the fields given: `serviceAccountKey` (gcs only), or the spec's
 * `accessKeyId` with `secretAccessKey`, decoded and reported exactly as the spec has it. Both
 * forms at once, or neither for gcs, is refused naming the fields.
 */
export const CreateDataExportCommand = withSchema(
  new t.Type<CreateDataExportCommand, unknown, unknown>(
    "CreateDataExportCommand",
    (u): u is CreateDataExportCommand => HmacCreateDataExportCommand.is(u) || ServiceAccountCreateDataExportCommand.is(u),
    (u, c) => {
      if (u === null || typeof u !== "object" || Array.isArray(u)) return HmacCreateDataExportCommand.validate(u, c);
      const body = u as Record<string, unknown>;
      const key = body["serviceAccountKey"];
      const hmacGiven = (["accessKeyId", "secretAccessKey"] as const).filter((field) => body[field] !== undefined);
      if (key !== undefined && hmacGiven.length > 0) {
        const message = "must not be given with serviceAccountKey: give either accessKeyId with secretAccessKey (HMAC keys), or serviceAccountKey";
        return t.failures([
          ...hmacGiven.map((field) => fieldFailure(c, field, body[field], message)),
          fieldFailure(c, "serviceAccountKey", key, "must not be given with accessKeyId or secretAccessKey"),
        ]);
      }
      if (key !== undefined) {
        if (body["provider"] === "s3")
          return t.failure(key, [...c, { key: "serviceAccountKey", type: t.unknown, actual: key }], "is only accepted with provider gcs");
        return ServiceAccountCreateDataExportCommand.validate(u, c);
      }
      if (body["provider"] === "gcs" && hmacGiven.length === 0) {
        return t.failures([
          fieldFailure(c, "accessKeyId", undefined, "is required with secretAccessKey (HMAC keys), unless serviceAccountKey is given"),
          fieldFailure(c, "secretAccessKey", undefined, "is required with accessKeyId (HMAC keys), unless serviceAccountKey is given"),
          fieldFailure(c, "serviceAccountKey", undefined, "is required unless accessKeyId and secretAccessKey are given"),
        ]);
      }
      return HmacCreateDataExportCommand.validate(u, c);
    },
    t.identity,
  ),
  { anyOf: [toJsonSchema(HmacCreateDataExportCommand), toJsonSchema(ServiceAccountCreateDataExportCommand)] },
);

/** Fixed at creation: changing them would move or mix the files already written. */
export const FIXED_FIELDS = ["provider", "bucket", "region", "endpoint", "pathPrefix", "datasets", "startFrom"] as const;
const fixed = withSchema(new t.Type<unknown, unknown, unknown>("FixedAtCreation", t.unknown.is, t.unknown.validate, t.identity), {
  description: "fixed at creation: refused with code invalid_input",
});

/** PATCH: rename, change the frequency, pause or resume, rotate the credentials (both keys together, or a service account key). */
export const UpdateDataExportCommand = t.exact(
  t.partial({
    name: optional(Name),
    frequency: optional(FrequencyCodec),
    isEnabled: optional(t.boolean),
    accessKeyId: optional(AccessKeyId),
    secretAccessKey: optional(SecretAccessKey),
    serviceAccountKey: optional(ServiceAccountKeyInput),
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
