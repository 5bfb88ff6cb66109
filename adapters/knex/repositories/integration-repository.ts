import * as t from "io-ts";
import type { Knex } from "knex";
import { PROVIDERS, SYNC_STATUSES, type Integration } from "../../../core/integrations/model.js";
import type { IntegrationChanges, IntegrationRepository } from "../../../core/integrations/ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { DbBoolean, DbDate, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { isUniqueViolation } from "../unique-violation.js";

const TABLE = "integrations";

const Settings = t.intersection([
  t.type({ listIds: t.union([t.array(t.string), t.null]) }),
  t.partial({ syncAllEvents: t.boolean, eventAllowlist: t.array(t.string) }),
]);

const State = t.type({
  kind: oneOf(["revenue", "history", "backfill"] as const),
  cursor: t.union([t.string, t.null]),
  pagesRead: t.number,
  recorded: t.number,
  skipped: t.number,
  startedAt: t.string,
  finishedAt: t.union([t.string, t.null]),
});

const IntegrationRow = t.type({
  id: t.string,
  company_id: t.string,
  provider: oneOf(PROVIDERS),
  name: t.string,
  provider_account_id: t.string,
  is_active: DbBoolean,
  sync_enabled: DbBoolean,
  sync_status: t.union([oneOf(SYNC_STATUSES), t.null]),
  credentials_sealed: t.string,
  settings: dbJson(Settings),
  sync_state: t.union([dbJson(State), t.null]),
  last_sync_at: DbNullableDate,
  last_sync_error: t.union([t.string, t.null]),
  connected_at: DbDate,
  updated_at: DbDate,
});

function toIntegration(row: unknown): Integration {
  const r = decodeRow(IntegrationRow, row, TABLE);
  return {
    id: r.id,
    companyId: r.company_id,
    provider: r.provider,
    name: r.name,
    providerAccountId: r.provider_account_id,
    isActive: r.is_active,
    syncEnabled: r.sync_enabled,
    syncStatus: r.sync_status,
    credentialsSealed: r.credentials_sealed,
    settings: r.settings,
    syncState: r.sync_state,
    lastSyncAt: r.last_sync_at,
    lastSyncError: r.last_sync_error,
    connectedAt: r.connected_at,
    updatedAt: r.updated_at,
  };
}

function changeColumns(changes: IntegrationChanges): Record<string, unknown> {
  return {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.providerAccountId !== undefined ? { provider_account_id: changes.providerAccountId } : {}),
    ...(changes.isActive !== undefined ? { is_active: changes.isActive } : {}),
    ...(changes.syncEnabled !== undefined ? { sync_enabled: changes.syncEnabled } : {}),
    ...(changes.syncStatus !== undefined ? { sync_status: changes.syncStatus } : {}),
    ...(changes.credentialsSealed !== undefined ? { credentials_sealed: changes.credentialsSealed } : {}),
    ...(changes.settings !== undefined ? { settings: JSON.stringify(changes.settings) } : {}),
    ...(changes.syncState !== undefined ? { sync_state: changes.syncState === null ? null : JSON.stringify(changes.syncState) } : {}),
    ...(changes.lastSyncAt !== undefined ? { last_sync_at: toDbDate(changes.lastSyncAt) } : {}),
    ...(changes.lastSyncError !== undefined ? { last_sync_error: changes.lastSyncError } : {}),
    ...(changes.connectedAt !== undefined ? { connected_at: toDbDate(changes.connectedAt) } : {}),
  };
}

/** `integrations`: one row per company and provider; an active provider account belongs to one company (partial unique index). */
export class KnexIntegrationRepository implements IntegrationRepository {
  constructor(private readonly knex: Knex) {}

  async list(companyId: string, includeInactive: boolean): Promise<Integration[]> {
    const query = this.knex(TABLE).where({ company_id: companyId });
    if (!includeInactive) query.andWhere({ is_active: true });
    return (
      await query.orderBy([
        { column: "connected_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
    ).map(toIntegration);
  }

  async find(companyId: string, integrationId: string): Promise<Integration | null> {
    const row = await this.knex(TABLE).where({ company_id: companyId, id: integrationId }).first();
    return row ? toIntegration(row) : null;
  }

  async findByProvider(companyId: string, provider: string): Promise<Integration | null> {
    const row = await this.knex(TABLE).where({ company_id: companyId, provider }).first();
    return row ? toIntegration(row) : null;
  }

  async accountHolder(provider: string, providerAccountId: string): Promise<string | null> {
    const row = await this.knex(TABLE).where({ provider, provider_account_id: providerAccountId, is_active: true }).first("company_id");
    return row ? String(row.company_id) : null;
  }

  async insert(integration: Integration): Promise<boolean> {
    try {
      await this.knex(TABLE).insert({
        id: integration.id,
        company_id: integration.companyId,
        provider: integration.provider,
        name: integration.name,
        provider_account_id: integration.providerAccountId,
        is_active: integration.isActive,
        sync_enabled: integration.syncEnabled,
        sync_status: integration.syncStatus,
        credentials_sealed: integration.credentialsSealed,
        settings: JSON.stringify(integration.settings),
        sync_state: integration.syncState ? JSON.stringify(integration.syncState) : null,
        last_sync_at: toDbDate(integration.lastSyncAt),
        last_sync_error: integration.lastSyncError,
        connected_at: toDbDate(integration.connectedAt),
        updated_at: toDbDate(integration.updatedAt),
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async update(companyId: string, integrationId: string, changes: IntegrationChanges, at: Date): Promise<Integration | null | false> {
    try {
      const updated = await this.knex(TABLE)
        .where({ company_id: companyId, id: integrationId })
        .update({ ...changeColumns(changes), updated_at: toDbDate(at) });
      return updated > 0 ? this.find(companyId, integrationId) : null;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async moveSyncStatus(
    companyId: string,
    integrationId: string,
    from: readonly (string | null)[],
    to: string,
    changes: IntegrationChanges,
    at: Date,
  ): Promise<boolean> {
    const states = from.filter((state): state is string => state !== null);
    const updated = await this.knex(TABLE)
      .where({ company_id: companyId, id: integrationId })
      .andWhere((where) => {
        if (states.length > 0) where.whereIn("sync_status", states);
        if (from.includes(null)) where.orWhereNull("sync_status");
      })
      .update({ ...changeColumns(changes), sync_status: to, updated_at: toDbDate(at) });
    return updated > 0;
  }
}
