import { whopPayment } from "../../core/integrations/providers/whop.js";
import { obj, str } from "../../core/integrations/providers/payload.js";
import { ProviderUnavailable } from "../../core/integrations/ports.js";
import type { HttpClient } from "../../core/ports/http-client.js";
import { ok } from "../../core/shared/result.js";
import type { ProviderApi } from "./provider-api.js";
import { callProvider, isOk, pageFailure, refusedCheck, unreachable } from "./provider-http.js";

const BASE = "https://api.whop.com/api/v1";
const PAGE_SIZE = 100;

/** Whop: the company ID (biz_...) is given and checked with the key; payments page with a cursor. */
export function whopApi(http: HttpClient): ProviderApi {
  const get = (apiKey: string, path: string) => callProvider(http, { method: "GET", url: `${BASE}${path}`, headers: { authorization: `Bearer ${apiKey}` } });
  return {
    async verify(credentials, accountId) {
      try {
        const response = await get(credentials.apiKey!, `/payments?company_id=${encodeURIComponent(accountId!)}&first=1`);
        if (!isOk(response.status)) return refusedCheck("Whop", response.status, "payment:basic:read");
        return ok({ providerAccountId: accountId!, name: null });
      } catch (error) {
        if (error instanceof ProviderUnavailable) return unreachable("Whop", error.message);
        throw error;
      }
    },
    sync: {
      kind: "revenue",
      async page(credentials, { providerAccountId: accountId }, cursor) {
        const after = cursor ? `&after=${encodeURIComponent(cursor)}` : "";
        const response = await get(credentials.apiKey!, `/payments?company_id=${encodeURIComponent(accountId)}&first=${PAGE_SIZE}${after}`);
        if (!isOk(response.status)) throw pageFailure("Whop", response.status);
        const body = obj(response.json) ?? {};
        const data = Array.isArray(body.data) ? body.data : [];
        const pageInfo = obj(body.page_info) ?? {};
        const now = new Date();
        return {
          records: data.map((item) => whopPayment(obj(item) ?? {}, now)),
          next: pageInfo.has_next_page === true && data.length > 0 ? (str(pageInfo.end_cursor) ?? null) : null,
        };
      },
    },
  };
}
