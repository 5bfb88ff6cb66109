import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { TeamMember } from "../tenancy/model.js";
import type { ApiKeyRecord, KeySelection } from "./model.js";
import type { ApiKeyRepository, ApiKeySecrets } from "./ports.js";

export interface IssuedApiKey {
  readonly record: ApiKeyRecord;
  /** The plain key: shown once, in the creation response, and never stored. */
  readonly plain: string;
}

/** Mints and stores a key for a member. Callers decide whether the selection is allowed. */
export class IssueApiKey {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly secrets: ApiKeySecrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  issue = async (member: TeamMember, name: string, selection: KeySelection, deviceName: string | null = null): Promise<IssuedApiKey> => {
    const minted = this.secrets.mint();
    const now = this.clock.now();
    const key = {
      id: this.ids.next("key"),
      companyId: member.companyId,
      memberId: member.id,
      name,
      prefix: minted.prefix,
      keyHash: minted.hash,
      preset: selection.preset,
      selectedScopes: selection.selectedScopes,
      deviceName,
      lastUsedAt: null,
      revokedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.keys.insert(key);
    return { record: { key, member }, plain: minted.plain };
  };
}
