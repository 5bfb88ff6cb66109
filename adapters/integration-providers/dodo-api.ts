import { dodoPayment } from "../../core/integrations/providers/dodo.js";
import { obj } from "../../core/integrations/providers/payload.js";
import { ProviderUnavailable } from "../../core/integrations/ports.js";
import type { HttpClient } from "../../core/ports/http-client.js";
import { ok } from "../../core/shared/result.js";
import type { ProviderApi } from "./provider-api.js";
import { callProvider, isOk, pageFailure, refusedCheck, unreachable, type ProviderResponse } from "./provider-http.js";

const LIVE = "https://live.dodopayments.com";
const TEST = "https://test.dodopayments.com";
const PAGE_SIZE = 100;

/** Dodo Payments: the business ID is given; a key the live API refuses is tried on the test API; payments page by number. */
export function dodoApi(http: HttpClient): ProviderApi {
  /** Live first, then test mode, for a key the live API does not know. */
  const get = async (apiKey: string, path: string): Promise<ProviderResponse> => {
    const live = await callProvider(http, { method: "GET", url: `${LIVE}${path}`, headers: { authorization: `Bearer ${apiKey}` } });
    if (live.status !== 401) return live;
    return callProvider(http, { method: "GET", url: `${TEST}${path}`, headers: { authorization: `Bearer ${apiKey}` } });
  };
  return {
    async verify(credentials, accountId) {
      try {
        const response = await get(credentials.apiKey!, "/payments?page_size=1");
        if (!isOk(response.status)) return refusedCheck("Dodo Payments", response.status, "payments read");
        return ok({ providerAccountId: accountId!, name: null });
      } catch (error) {
        if (error instanceof ProviderUnavailable) return unreachable("Dodo Payments", error.message);
        throw error;
      }
    },
    sync: {
      kind: "revenue",
      async page(credentials, _integration, cursor) {
        const page = Number(cursor ?? "0");
        const response = await get(credentials.apiKey!, `/payments?page_size=${PAGE_SIZE}&page_number=${page}&status=succeeded`);
        if (!isOk(response.status)) throw pageFailure("Dodo Payments", response.status);
        const items = Array.isArray(obj(response.json)?.items) ? (obj(response.json)!.items as unknown[]) : [];
        const now = new Date();
        return { records: items.map((item) => dodoPayment(obj(item) ?? {}, now)), next: items.length === PAGE_SIZE ? String(page + 1) : null };
      },
    },
  };
}
