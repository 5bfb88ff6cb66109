import * as t from "io-ts";
import type { Knex } from "knex";
import type { WebTrackingKey } from "../../../core/web-tracking/model.js";
import type { WebTrackingKeyChanges, WebTrackingKeyRepository } from "../../../core/web-tracking/ports.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";
import { DbBoolean, DbDate, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const TABLE = "web_tracking_keys";

const WebTrackingKeyRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  public_key: t.string,
  allowed_origins: dbJson(t.array(t.string)),
  is_active: DbBoolean,
  last_used_at: DbNullableDate,
  created_at: DbDate,
  updated_at: DbDate,
});

function toKey(row: unknown): WebTrackingKey {
  const r = decodeRow(WebTrackingKeyRow, row, TABLE);
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    publicKey: r.public_key,
    allowedOrigins: r.allowed_origins,
    isActive: r.is_active,
    lastUsedAt: r.last_used_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** `web_tracking_keys`: one row per key, its origins a JSON array. */
export class KnexWebTrackingKeyRepository implements WebTrackingKeyRepository {
  private readonly cache: SqliteReadCache;

  constructor(private readonly knex: Knex) {
    this.cache = SqliteReadCache.for(knex);
  }

  async list(companyId: string): Promise<WebTrackingKey[]> {
    return (
      await this.knex(TABLE)
        .where({ company_id: companyId })
        .orderBy([
          { column: "created_at", order: "desc" },
          { column: "id", order: "desc" },
        ])
    ).map(toKey);
  }

  async find(companyId: string, keyId: string): Promise<WebTrackingKey | null> {
    const row = await this.knex(TABLE).where({ company_id: companyId, id: keyId }).first();
    return row ? toKey(row) : null;
  }

  /** The hot path of every tracked page's batch: cached on SQLite. */
  findByPublicKey(publicKey: string): Promise<WebTrackingKey | null> {
    return this.cache.read(`web-tracking-key:${publicKey}`, [TABLE], async () => {
      const row = await this.knex(TABLE).where({ public_key: publicKey }).first();
      return row ? toKey(row) : null;
    });
  }

  async insert(key: WebTrackingKey): Promise<void> {
    await this.knex(TABLE).insert({
      id: key.id,
      company_id: key.companyId,
      name: key.name,
      public_key: key.publicKey,
      allowed_origins: JSON.stringify(key.allowedOrigins),
      is_active: key.isActive,
      last_used_at: toDbDate(key.lastUsedAt),
      created_at: toDbDate(key.createdAt),
      updated_at: toDbDate(key.updatedAt),
    });
  }

  async update(companyId: string, keyId: string, changes: WebTrackingKeyChanges, at: Date): Promise<WebTrackingKey | null> {
    const updated = await this.knex(TABLE)
      .where({ company_id: companyId, id: keyId })
      .update({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.allowedOrigins !== undefined ? { allowed_origins: JSON.stringify(changes.allowedOrigins) } : {}),
        ...(changes.isActive !== undefined ? { is_active: changes.isActive } : {}),
        updated_at: toDbDate(at),
      });
    return updated > 0 ? this.find(companyId, keyId) : null;
  }

  async delete(companyId: string, keyId: string): Promise<boolean> {
    return (await this.knex(TABLE).where({ company_id: companyId, id: keyId }).delete()) > 0;
  }

  async markUsed(keyId: string, at: Date): Promise<void> {
    await this.knex(TABLE)
      .where({ id: keyId })
      .update({ last_used_at: toDbDate(at) });
  }
}
