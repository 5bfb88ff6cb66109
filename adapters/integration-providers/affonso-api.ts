import { affonsoReferral } from "../../core/integrations/providers/affonso.js";
import { obj, str } from "../../core/integrations/providers/payload.js";
import { skipped } from "../../core/integrations/model.js";
import { ProviderUnavailable } from "../../core/integrations/ports.js";
import type { HttpClient } from "../../core/ports/http-client.js";
import { ok } from "../../core/shared/result.js";
import { fingerprint } from "./account-fingerprint.js";
import type { ProviderApi } from "./provider-api.js";
import { callProvider, isOk, pageFailure, refusedCheck, unreachable } from "./provider-http.js";

const BASE = "https://api.affonso.io/v1";
const PAGE_SIZE = 100;

/** Affonso: the key is checked by listing the program's affiliates; the account is derived from the key; referrals are backfilled page by page. */
export function affonsoApi(http: HttpClient): ProviderApi {
  const get = (apiKey: string, path: string) => callProvider(http, { method: "GET", url: `${BASE}${path}`, headers: { authorization: `Bearer ${apiKey}` } });
  return {
    async verify(credentials) {
      try {
        const response = await get(credentials.apiKey!, "/affiliates?limit=1");
        if (!isOk(response.status)) return refusedCheck("Affonso", response.status, "affiliates and referrals read");
        return ok({ providerAccountId: fingerprint("affonso", credentials.apiKey!), name: null });
      } catch (error) {
        if (error instanceof ProviderUnavailable) return unreachable("Affonso", error.message);
        throw error;
      }
    },
    sync: {
      kind: "backfill",
      async page(credentials, _integration, cursor) {
        const page = Number(cursor ?? "1");
        const response = await get(credentials.apiKey!, `/referrals?page=${page}&limit=${PAGE_SIZE}`);
        if (!isOk(response.status)) throw pageFailure("Affonso", response.status);
        const body = obj(response.json) ?? {};
        const data = (Array.isArray(body.data) ? body.data : []).map((item) => obj(item) ?? {});
        const hasMore = obj(body.pagination)?.has_more === true || (obj(body.pagination) === undefined && data.length === PAGE_SIZE);
        const now = new Date();
        return {
          records: data.map((referral) => {
            const status = str(referral.status);
            if (status === "rejected") return skipped("the referral was rejected");
            return affonsoReferral(referral, status === "converted" || status === "customer", now);
          }),
          next: hasMore && data.length > 0 ? String(page + 1) : null,
        };
      },
    },
  };
}
