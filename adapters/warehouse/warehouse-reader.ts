import { WarehouseError, type WarehouseRead, type WarehouseReader, type WarehouseRow, type WarehouseSource } from "../../core/warehouse/ports.js";
import { PostgresWarehouseReader } from "./postgres-warehouse-reader.js";
import { SqliteWarehouseReader } from "./sqlite-warehouse-reader.js";

/**
 * The WarehouseReader of the service: Postgres warehouses (public hosts only, unless
 * ALLOW_PRIVATE_DESTINATIONS), and SQLite files on this server only when that is allowed.
 */
export class KindWarehouseReader implements WarehouseReader {
  private readonly postgres: PostgresWarehouseReader;
  private readonly sqlite = new SqliteWarehouseReader();

  constructor(private readonly allowPrivateDestinations: boolean) {
    this.postgres = new PostgresWarehouseReader(allowPrivateDestinations);
  }

  async check(source: WarehouseSource, timeoutMs: number): Promise<void> {
    await this.reader(source).check(source.url, timeoutMs);
  }

  async columns(source: WarehouseSource, query: string, timeoutMs: number): Promise<string[]> {
    return this.reader(source).columns(source.url, query, timeoutMs);
  }

  async *read(source: WarehouseSource, read: WarehouseRead): AsyncGenerator<readonly WarehouseRow[]> {
    yield* this.reader(source).read(source.url, read);
  }

  private reader(source: WarehouseSource): PostgresWarehouseReader | SqliteWarehouseReader {
    if (source.kind === "postgres") return this.postgres;
    if (!this.allowPrivateDestinations) throw new WarehouseError("connection", "sqlite warehouses are read only when ALLOW_PRIVATE_DESTINATIONS=true");
    return this.sqlite;
  }
}
