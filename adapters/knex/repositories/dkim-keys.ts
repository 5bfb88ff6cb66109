import type { Knex } from "knex";
import type { DkimSigningKey } from "../../../core/delivery/mail-transport.js";
import type { DkimKeys } from "../../../core/delivery/ports.js";
import type { SecretBox } from "../../../core/ports/secret-box.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";

/** The DKIM key of a company's verified sending domain, from `sending_domains`, opened with the SecretBox. */
export class KnexDkimKeys implements DkimKeys {
  constructor(
    private readonly knex: Knex,
    private readonly box: SecretBox,
  ) {}

  /** Read for every delivery: the sealed row is cached on SQLite until the database changes; the key is opened per use. */
  async find(companyId: string, domain: string): Promise<DkimSigningKey | null> {
    const name = domain.toLowerCase();
    const row = await SqliteReadCache.for(this.knex).read(`dkim-key:${companyId}:${name}`, () =>
      this.knex("sending_domains").where({ company_id: companyId, domain: name, status: "verified" }).first("domain", "dkim_selector", "dkim_private_key_sealed"),
    );
    if (!row) return null;
    return { domainName: String(row.domain), keySelector: String(row.dkim_selector), privateKey: this.box.open(String(row.dkim_private_key_sealed)) };
  }
}
