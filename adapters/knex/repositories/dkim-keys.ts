import type { Knex } from "knex";
import type { DkimSigningKey } from "../../../core/delivery/mail-transport.js";
import type { DkimKeys } from "../../../core/delivery/ports.js";
import type { SecretBox } from "../../../core/ports/secret-box.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";

const MAX_OPENED_KEYS = 1_000;

/** The DKIM key of a company's verified sending domain, from `sending_domains`, opened with the SecretBox. */
export class KnexDkimKeys implements DkimKeys {
  /** Opened keys by their sealed form: a rotated or re-sealed key is a new entry. */
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly knex: Knex,
    private readonly box: SecretBox,
  ) {}

  /** Read for every delivery: the sealed row is cached on SQLite until the database changes, and opened once. */
  async find(companyId: string, domain: string): Promise<DkimSigningKey | null> {
    const name = domain.toLowerCase();
    const row = await SqliteReadCache.for(this.knex).read(`dkim-key:${companyId}:${name}`, ["sending_domains"], () =>
      this.knex("sending_domains")
        .where({ company_id: companyId, domain: name, status: "verified" })
        .first("domain", "dkim_selector", "dkim_private_key_sealed"),
    );
    if (!row) return null;
    return { domainName: String(row.domain), keySelector: String(row.dkim_selector), privateKey: this.open(String(row.dkim_private_key_sealed)) };
  }

  private open(sealed: string): string {
    let key = this.opened.get(sealed);
    if (key === undefined) {
      key = this.box.open(sealed);
      if (this.opened.size >= MAX_OPENED_KEYS) this.opened.clear();
      this.opened.set(sealed, key);
    }
    return key;
  }
}
