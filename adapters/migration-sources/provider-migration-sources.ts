import type { SourceConfig } from "../../core/migrations/model.js";
import type { MigrationSource, MigrationSources } from "../../core/migrations/ports.js";
import type { HttpClient } from "../../core/ports/http-client.js";
import { CsvMigrationSource, type CsvRowMapper } from "./csv-source.js";
import { MailchimpMigrationSource } from "./mailchimp-source.js";

/** Every provider a migration can come from: `csv` (offline) and Mailchimp's Marketing API. */
export class ProviderMigrationSources implements MigrationSources {
  constructor(
    private readonly http: HttpClient,
    /** The CSV column mapping the CLI import uses, so a file imports the same either way. */
    private readonly csvRows: CsvRowMapper,
  ) {}

  connect(config: SourceConfig): MigrationSource {
    switch (config.provider) {
      case "csv":
        return new CsvMigrationSource(config.csv, this.csvRows);
      case "mailchimp":
        return new MailchimpMigrationSource(this.http, config.apiKey, config.baseUrl);
    }
  }
}
