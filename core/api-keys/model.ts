import type { PresetName } from "../access/presets.js";
import type { Scope } from "../access/scopes.js";
import type { TeamMember } from "../tenancy/model.js";

/**
 * A company-scoped API key acting as one team member. Only the SHA-256 hash of the plain
 * key is kept; revocation is permanent (the row stays, marked revoked, for the audit trail).
 */
export interface ApiKey {
  readonly id: string;
  readonly companyId: string;
  readonly memberId: string;
  readonly name: string;
  readonly prefix: string;
  readonly keyHash: string;
  readonly preset: PresetName;
  /** Null for full access: the key holds whatever its member's role allows. */
  readonly selectedScopes: readonly Scope[] | null;
  readonly deviceName: string | null;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A key with the member it acts as. */
export interface ApiKeyRecord {
  readonly key: ApiKey;
  readonly member: TeamMember;
}

/** A freshly minted key: the plain text exists only in this value, never in storage. */
export interface MintedKey {
  readonly plain: string;
  readonly prefix: string;
  readonly hash: string;
}

/** The selection of scopes a new or changed key receives. */
export interface KeySelection {
  readonly preset: PresetName;
  readonly selectedScopes: readonly Scope[] | null;
}

export const DEFAULT_KEY_NAME = "Default integration";
