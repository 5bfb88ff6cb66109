import { parse } from "csv-parse/sync";
import type { DiscoveredResource } from "../../core/migrations/model.js";
import { SourceError, type MigrationSource, type SourcePage } from "../../core/migrations/ports.js";

/** Turns a CSV header into the mapping of its records to subscriber import rows. */
export type CsvRowMapper = (header: readonly string[]) => (cells: readonly string[]) => Record<string, unknown>;

/** The one resource a CSV holds. */
export const CSV_RESOURCE_ID = "contacts";

/** Headers other tools write for the email column (Mailchimp's export: "Email Address"). */
const EMAIL_ALIASES = new Set(["emailaddress", "e-mailaddress", "e-mail", "mail"]);
const squeeze = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, "");

/** The header with the email column under the name the row mapper knows. */
const withAliases = (header: readonly string[]): string[] => header.map((name) => (EMAIL_ALIASES.has(squeeze(name)) ? "email" : name));
const hasEmailColumn = (header: readonly string[]): boolean => header.some((name) => squeeze(name).replace(/-/g, "") === "email");

/**
 * A contacts CSV given in the request (provider `csv`, offline): one resource, `contacts`, with
 * the file's record count. Columns map as in the CLI import (email, first name, last name, tags,
 * status... are contact fields; every other column is a custom attribute). The text is parsed
 * again for each batch, up to the batch's end only.
 */
export class CsvMigrationSource implements MigrationSource {
  constructor(
    private readonly csv: string,
    private readonly rowMapper: CsvRowMapper,
  ) {}

  async discover(): Promise<DiscoveredResource[]> {
    const records = this.records();
    const header = records[0];
    if (!header || !hasEmailColumn(withAliases(header))) {
      throw new SourceError(
        "invalid",
        `The CSV needs a header row with an email column (found: ${header?.map((name) => name.trim()).join(", ") || "no header"})`,
      );
    }
    return [{ id: CSV_RESOURCE_ID, type: "contacts", count: records.length - 1, name: "Contacts (CSV)" }];
  }

  async readContacts(_resource: DiscoveredResource, offset: number, limit: number): Promise<SourcePage<Record<string, unknown>>> {
    // The header, the batch's records and one more (to know whether any follows): parsing stops there.
    const records = this.records(offset + limit + 2);
    const header = records[0];
    if (!header) return { items: [], read: 0, done: true };
    const toRow = this.rowMapper(withAliases(header));
    const batch = records.slice(offset + 1, offset + 1 + limit);
    return { items: batch.map((cells) => toRow(cells)), read: batch.length, done: records.length <= offset + 1 + limit };
  }

  async readCampaigns(): Promise<never> {
    throw new SourceError("invalid", "A CSV holds contacts only");
  }

  async readTemplates(): Promise<never> {
    throw new SourceError("invalid", "A CSV holds contacts only");
  }

  /** The records (header first), at most `to` of them. */
  private records(to?: number): string[][] {
    try {
      const records: string[][] = parse(this.csv, { bom: true, skip_empty_lines: true, relax_column_count: true, ...(to ? { to } : {}) });
      return records;
    } catch (error) {
      throw new SourceError("invalid", `The CSV could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
