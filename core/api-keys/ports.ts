import type { ApiKey, ApiKeyRecord, KeySelection, MintedKey } from "./model.js";
import { token } from "../shared/token.js";

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  /**
   * The one lookup not scoped by company: the key itself names its company. Returns null
   * for unknown and revoked keys alike.
   */
  findActiveByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  listActive(companyId: string): Promise<ApiKeyRecord[]>;
  findActive(companyId: string, keyId: string): Promise<ApiKeyRecord | null>;
  /** Marks the key revoked; false when it was not an active key of that company. */
  revoke(companyId: string, keyId: string, at: Date): Promise<boolean>;
  update(companyId: string, keyId: string, changes: { name?: string; selection?: KeySelection }, at: Date): Promise<boolean>;
}
export const ApiKeyRepository = token<ApiKeyRepository>("lifecycle.ApiKeyRepository");

/** Mints keys and hashes presented ones. */
export interface ApiKeySecrets {
  mint(): MintedKey;
  /** The stored form of a presented key, or null when it is not even well-formed (checksum fails). */
  hashPresented(plain: string): string | null;
}
export const ApiKeySecrets = token<ApiKeySecrets>("lifecycle.ApiKeySecrets");

/**
 * Records that a key was used, off the request's critical path: implementations write at
 * most once a minute per key and never make the caller wait.
 */
export interface ApiKeyUsage {
  recordUse(key: ApiKey, at: Date): void;
  /** Resolves once every recorded use has been written (tests, shutdown). */
  flush(): Promise<void>;
}
export const ApiKeyUsage = token<ApiKeyUsage>("lifecycle.ApiKeyUsage");
