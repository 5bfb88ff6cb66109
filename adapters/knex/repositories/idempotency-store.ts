import * as t from "io-ts";
import type { Knex } from "knex";
import type { IdempotencyBegin, IdempotencyStore, RequestFingerprint } from "../../../core/idempotency/ports.js";
import { DbDate, DbInteger, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { isUniqueViolation } from "../unique-violation.js";

const IdempotencyRow = t.type({
  company_id: t.string,
  idempotency_key: t.string,
  method: t.string,
  path: t.string,
  request_hash: t.string,
  status: t.keyof({ in_flight: null, completed: null }),
  response_status: t.union([DbInteger, t.null]),
  response_body: t.union([t.null, dbJson(t.unknown)]),
  created_at: DbDate,
  expires_at: DbDate,
});

/**
 * `idempotency_keys` as the store. The primary key (company, key) is the lock: the insert that
 * wins starts the request, every other one reads what the winner left.
 */
export class KnexIdempotencyStore implements IdempotencyStore {
  constructor(private readonly knex: Knex) {}

  private row(companyId: string, key: string) {
    return this.knex("idempotency_keys").where({ company_id: companyId, idempotency_key: key });
  }

  async begin(companyId: string, key: string, fingerprint: RequestFingerprint, now: Date, ttlMs: number): Promise<IdempotencyBegin> {
    // The record may vanish (abandoned, expired and deleted) between our insert and our read: a few rounds settle it.
    for (let round = 0; round < 5; round++) {
      try {
        await this.knex("idempotency_keys").insert({
          company_id: companyId,
          idempotency_key: key,
          method: fingerprint.method,
          path: fingerprint.path,
          request_hash: fingerprint.requestHash,
          status: "in_flight",
          response_status: null,
          response_body: null,
          created_at: toDbDate(now),
          expires_at: toDbDate(new Date(now.getTime() + ttlMs)),
        });
        return { kind: "started" };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const found = await this.row(companyId, key).first();
      if (!found) continue;
      const r = decodeRow(IdempotencyRow, found, "idempotency_keys");
      if (r.expires_at.getTime() <= now.getTime()) {
        // Deletes only a record that is still expired, so a fresh one a racing request just put in place survives.
        await this.row(companyId, key).where("expires_at", "<=", toDbDate(now)).delete();
        continue;
      }
      if (r.method !== fingerprint.method || r.path !== fingerprint.path || r.request_hash !== fingerprint.requestHash) return { kind: "mismatch" };
      if (r.status === "in_flight" || r.response_status === null) return { kind: "in_flight" };
      return { kind: "replay", status: r.response_status, body: r.response_body };
    }
    throw new Error(`could not claim idempotency key ${key}`);
  }

  async complete(companyId: string, key: string, status: number, body: unknown): Promise<void> {
    await this.row(companyId, key)
      .where({ status: "in_flight" })
      .update({ status: "completed", response_status: status, response_body: JSON.stringify(body ?? null) });
  }

  async abandon(companyId: string, key: string): Promise<void> {
    await this.row(companyId, key).where({ status: "in_flight" }).delete();
  }
}
