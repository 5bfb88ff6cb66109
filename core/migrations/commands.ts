import * as t from "io-ts";
import { arrayOf } from "../emails/blocks.js";
import { boundedText, HttpUrl, IsoDate, oneOf, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { DuplicateStrategyCodec, SubscriberStatusCodec } from "../subscribers/commands.js";
import { MIGRATION_PROVIDERS, type ResourceOptions } from "./model.js";

/**
 * Inputs of the migration routes (spec, Endpoints > Migrations; decisions.md, Migrations). Types
 * and enumerations are checked here (422); what depends on the provider or on the run (which
 * credentials a provider needs, which resources exist) is the use cases' (400).
 */

/** The CSV a `csv` migration carries in its body (text, header row first). */
export const MAX_CSV_CHARS = 10 * 1024 * 1024;
/** Resources one start may select. */
export const MAX_SELECTED_RESOURCES = 1000;

const ResourceOptionsCodec = t.exact(
  t.partial({
    statuses: optional(arrayOf(SubscriberStatusCodec, 1, 3, "statuses")),
    duplicateStrategy: optional(DuplicateStrategyCodec),
    createdSince: optional(IsoDate),
  }),
  "ResourceOptions",
);
const ResourceOptionsMap = t.record(t.string, ResourceOptionsCodec, "ResourceOptionsMap");
const ResourceIds = arrayOf(TrimmedNonEmpty, 0, MAX_SELECTED_RESOURCES, "resource IDs");

/** The selection fields shared by create (pre-approval) and start. */
const selection = {
  /** Approves these discovered resources (spec: "approves these resources first"). */
  resourceIds: optional(ResourceIds),
  /** Per-resource filters, honoured only with a nonempty resourceIds. */
  resourceOptions: optional(ResourceOptionsMap),
};

/** POST /migrations: `{provider, ...credentials}`; the provider's own fields are checked by the use case. */
export const CreateMigrationCommand = t.exact(
  t.intersection([
    t.type({ provider: oneOf(MIGRATION_PROVIDERS, "MigrationProvider") }),
    t.partial({
      /** provider `csv`: the text of a contacts CSV with a header row. */
      csv: optional(boundedText(MAX_CSV_CHARS)),
      /** provider `mailchimp`: an API key ending in its data center (`-us21`). */
      apiKey: optional(boundedText(200)),
      /** The provider API's base URL: accepted only when ALLOW_PRIVATE_DESTINATIONS=true (tests). */
      baseUrl: optional(HttpUrl),
      ...selection,
    }),
  ]),
  "CreateMigrationCommand",
);
export type CreateMigrationCommand = t.TypeOf<typeof CreateMigrationCommand>;

/** POST /migrations/{runId}/start. */
export const StartMigrationCommand = t.exact(t.partial(selection), "StartMigrationCommand");
export type StartMigrationCommand = t.TypeOf<typeof StartMigrationCommand>;

export const MigrationPath = t.type({ runId: TrimmedNonEmpty }, "MigrationPath");

/** The options as the run stores them (times as ISO text). */
export function toResourceOptions(given: t.TypeOf<typeof ResourceOptionsMap> | undefined): Record<string, ResourceOptions> {
  const options: Record<string, ResourceOptions> = {};
  for (const [id, value] of Object.entries(given ?? {})) {
    options[id] = {
      ...(value.statuses ? { statuses: value.statuses } : {}),
      ...(value.duplicateStrategy ? { duplicateStrategy: value.duplicateStrategy } : {}),
      ...(value.createdSince ? { createdSince: value.createdSince.toISOString() } : {}),
    };
  }
  return options;
}
