import * as t from "io-ts";
import type { Knex } from "knex";
import { PresetCodec, ScopeCodec } from "../../../core/api-keys/commands.js";
import type { ApiKey, ApiKeyRecord, KeySelection } from "../../../core/api-keys/model.js";
import type { ApiKeyRepository } from "../../../core/api-keys/ports.js";
import { DbDate, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";
import { teamMemberColumns, toTeamMember } from "./team-member-rows.js";

const ApiKeyRow = t.type({
  id: t.string,
  company_id: t.string,
  member_id: t.string,
  name: t.string,
  prefix: t.string,
  key_hash: t.string,
  preset: PresetCodec,
  selected_scopes: t.union([t.null, dbJson(t.union([t.array(ScopeCodec), t.null]))]),
  device_name: t.union([t.string, t.null]),
  last_used_at: DbNullableDate,
  revoked_at: DbNullableDate,
  created_at: DbDate,
  updated_at: DbDate,
});

function toRecord(row: unknown): ApiKeyRecord {
  const r = decodeRow(ApiKeyRow, row, "api_keys");
  const key: ApiKey = {
    id: r.id,
    companyId: r.company_id,
    memberId: r.member_id,
    name: r.name,
    prefix: r.prefix,
    keyHash: r.key_hash,
    preset: r.preset,
    selectedScopes: r.selected_scopes,
    deviceName: r.device_name,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  return { key, member: toTeamMember(row) };
}

const selectionColumns = (selection: KeySelection) => ({
  preset: selection.preset,
  selected_scopes: selection.selectedScopes ? JSON.stringify(selection.selectedScopes) : null,
});

export class KnexApiKeyRepository implements ApiKeyRepository {
  private readonly cache: SqliteReadCache;

  constructor(private readonly knex: Knex) {
    this.cache = SqliteReadCache.for(knex);
    // Recording a key's last use (once a minute per key) must not throw away every cached key:
    // nothing reads last_used_at on the request path (the usage throttle keeps its own times).
    this.cache.ignoreWrites(/^update `api_keys` set `last_used_at` = \? where/);
  }

  /** Active keys joined with the member they act as. */
  private active() {
    return this.knex("api_keys as k")
      .join("team_members as m", "m.id", "k.member_id")
      .join("users as u", "u.id", "m.user_id")
      .whereNull("k.revoked_at")
      .select("k.*", ...teamMemberColumns);
  }

  async insert(key: ApiKey): Promise<void> {
    await this.knex("api_keys").insert({
      id: key.id,
      company_id: key.companyId,
      member_id: key.memberId,
      name: key.name,
      prefix: key.prefix,
      key_hash: key.keyHash,
      ...selectionColumns(key),
      device_name: key.deviceName,
      last_used_at: toDbDate(key.lastUsedAt),
      revoked_at: toDbDate(key.revokedAt),
      created_at: toDbDate(key.createdAt),
      updated_at: toDbDate(key.updatedAt),
    });
  }

  /** The hot path of every request: cached on SQLite. */
  findActiveByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    return this.cache.read(`api_key:${keyHash}`, ["api_keys", "team_members", "users"], async () => {
      const row = await this.active().where("k.key_hash", keyHash).first();
      return row ? toRecord(row) : null;
    });
  }

  async listActive(companyId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.active()
      .where("k.company_id", companyId)
      .orderBy([{ column: "k.created_at" }, { column: "k.id" }]);
    return rows.map(toRecord);
  }

  async findActive(companyId: string, keyId: string): Promise<ApiKeyRecord | null> {
    const row = await this.active().where({ "k.company_id": companyId, "k.id": keyId }).first();
    return row ? toRecord(row) : null;
  }

  async revoke(companyId: string, keyId: string, at: Date): Promise<boolean> {
    const changed = await this.knex("api_keys")
      .where({ company_id: companyId, id: keyId })
      .whereNull("revoked_at")
      .update({ revoked_at: toDbDate(at), updated_at: toDbDate(at) });
    return changed > 0;
  }

  async update(companyId: string, keyId: string, changes: { name?: string; selection?: KeySelection }, at: Date): Promise<boolean> {
    const changed = await this.knex("api_keys")
      .where({ company_id: companyId, id: keyId })
      .whereNull("revoked_at")
      .update({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.selection ? selectionColumns(changes.selection) : {}),
        updated_at: toDbDate(at),
      });
    return changed > 0;
  }

  /** Writes last_used_at unless another process wrote it within the last `minGapMs`. */
  async recordUse(keyId: string, at: Date, minGapMs: number): Promise<void> {
    await this.knex("api_keys")
      .where({ id: keyId })
      .where((q) => q.whereNull("last_used_at").orWhere("last_used_at", "<=", toDbDate(new Date(at.getTime() - minGapMs))))
      .update({ last_used_at: toDbDate(at) });
  }
}
