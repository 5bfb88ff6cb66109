import type { Knex } from "knex";
import * as m0001 from "./0001-tenancy-and-api-keys.js";
import * as m0002 from "./0002-jobs.js";
import * as m0003 from "./0003-idempotency-keys.js";
import * as m0004 from "./0004-rate-limits.js";
import * as m0005 from "./0005-contacts.js";
import * as m0006 from "./0006-email-pipeline.js";
import * as m0009 from "./0009-delivery-webhook-secrets.js";
import * as m0011 from "./0011-metrics-indexes.js";
import * as m0012 from "./0012-machine-engagement.js";
import * as m0013 from "./0013-data-exports.js";
import * as m0014 from "./0014-warehouse-syncs.js";
import * as m0015 from "./0015-migrations.js";
import * as m0016 from "./0016-ses-topic-pins.js";
import * as m0017 from "./0017-retention-indexes.js";
import * as m0018 from "./0018-contact-engagement.js";
import * as m0019 from "./0019-company-website.js";
import * as m0020 from "./0020-template-sharing-and-localizations.js";
import * as m0021 from "./0021-warehouse-syncs-idle-between-runs.js";
import * as m0022 from "./0022-sending-status.js";
import * as m0023 from "./0023-tracking-settings.js";
import * as m0026 from "./0026-sequences.js";
import * as m0027 from "./0027-campaigns.js";
import * as m0028 from "./0028-sequence-enrollments.js";
import * as m0029 from "./0029-sequence-trigger-state.js";
import * as m0030 from "./0030-sequence-goals.js";
import * as m0031 from "./0031-sequence-runs.js";
import * as m0032 from "./0032-campaign-sends.js";
import * as m0033 from "./0033-campaign-sharing-goals-and-metrics.js";
import * as m0034 from "./0034-web-tracking.js";
import * as m0035 from "./0035-forms-and-landing-pages.js";
import * as m0036 from "./0036-webhooks.js";
import * as m0037 from "./0037-team-invitations.js";
import * as m0038 from "./0038-integrations.js";
import * as m0039 from "./0039-sequence-enrollment-moves.js";
import * as m0040 from "./0040-recurring-campaigns.js";
import * as m0041 from "./0041-data-export-service-accounts.js";
import * as m0042 from "./0042-campaign-pause-reason.js";
import * as m0043 from "./0043-sequence-realignments.js";
import * as m0044 from "./0044-sequence-enrollments-new.js";
import * as m0045 from "./0045-landing-page-domains.js";
import * as m0046 from "./0046-landing-page-hourly-stats.js";
import * as m0047 from "./0047-sequence-enrollments-company-due.js";
import * as m0048 from "./0048-campaign-computed-lists.js";
import * as m0049 from "./0049-email-send-contents.js";
import * as m0050 from "./0050-sequence-enrollments-waiting.js";

interface Migration {
  readonly name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Every migration, in order. A new one is a new file plus one line here. */
const migrations: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0009,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
  m0019,
  m0020,
  m0021,
  m0022,
  m0023,
  m0026,
  m0027,
  m0028,
  m0029,
  m0030,
  m0031,
  m0032,
  m0033,
  m0034,
  m0035,
  m0036,
  m0037,
  m0038,
  m0039,
  m0040,
  m0041,
  m0042,
  m0043,
  m0044,
  m0045,
  m0046,
  m0047,
  m0048,
  m0049,
  m0050,
];

/** Migrations compiled into the package, so no directory scanning at run time. */
export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => [...migrations],
  getMigrationName: (migration) => migration.name,
  getMigration: async (migration) => migration,
};
