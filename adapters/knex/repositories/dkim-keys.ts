import type { Knex } from "knex";
import type { DkimSigningKey } from "../../../core/delivery/mail-transport.js";
import type { DkimKeys } from "../../../core/delivery/ports.js";
import type { SecretBox } from "../../../core/ports/secret-box.js";

/** The DKIM key of a company's verified sending domain, from `sending_domains`, opened with the SecretBox. */
export class KnexDkimKeys implements DkimKeys {
  constructor(
    private readonly knex: Knex,
    private readonly box: SecretBox,
  ) {}

  async find(companyId: string, domain: string): Promise<DkimSigningKey | null> {
    const row = await this.knex("sending_domains")
      .where({ company_id: companyId, domain: domain.toLowerCase(), status: "verified" })
      .first("domain", "dkim_selector", "dkim_private_key_sealed");
    if (!row) return null;
    return { domainName: String(row.domain), keySelector: String(row.dkim_selector), privateKey: this.box.open(String(row.dkim_private_key_sealed)) };
  }
}
