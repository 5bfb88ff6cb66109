import type { ApiKey } from "../../core/api-keys/model.js";
import type { ApiKeyUsage } from "../../core/api-keys/ports.js";
import type { KnexApiKeyRepository } from "./repositories/api-key-repository.js";

export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Records key use at most once a minute per key: skipped when the row (or this process) saw
 * a write within the minute, otherwise written in the background, never awaited by requests.
 */
export class ThrottledApiKeyUsage implements ApiKeyUsage {
  private readonly lastWritten = new Map<string, number>();
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly keys: KnexApiKeyRepository,
    private readonly onError: (error: unknown) => void,
  ) {}

  recordUse(key: ApiKey, at: Date): void {
    const now = at.getTime();
    const stored = key.lastUsedAt?.getTime() ?? -Infinity;
    const local = this.lastWritten.get(key.id) ?? -Infinity;
    if (now - Math.max(stored, local) < LAST_USED_RESOLUTION_MS) return;
    this.lastWritten.set(key.id, now);
    const write = this.keys
      .recordUse(key.id, at, LAST_USED_RESOLUTION_MS)
      .catch(this.onError)
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
