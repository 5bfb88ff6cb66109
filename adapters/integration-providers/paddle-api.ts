import { paddleTransaction } from "../../core/integrations/providers/paddle.js";
import { email, obj, str } from "../../core/integrations/providers/payload.js";
import { ProviderUnavailable } from "../../core/integrations/ports.js";
import type { HttpClient } from "../../core/ports/http-client.js";
import { ok } from "../../core/shared/result.js";
import type { ProviderApi } from "./provider-api.js";
import { callProvider, isOk, pageFailure, refusedCheck, unreachable } from "./provider-http.js";

const PAGE_SIZE = 100;

/** Sandbox keys (`pdl_sdbx_apikey_...`) belong to the sandbox API. */
export const paddleBase = (apiKey: string): string => (apiKey.includes("_sdbx_") ? "https://sandbox-api.paddle.com" : "https://api.paddle.com");

/** Paddle Billing: the seller ID is given; completed transactions page with an `after` cursor; customers are looked up for their email. */
export function paddleApi(http: HttpClient): ProviderApi {
  const get = (apiKey: string, path: string) =>
    callProvider(http, { method: "GET", url: `${paddleBase(apiKey)}${path}`, headers: { authorization: `Bearer ${apiKey}` } });
  return {
    async verify(credentials, accountId) {
      try {
        const response = await get(credentials.apiKey!, "/transactions?per_page=1");
        if (!isOk(response.status)) return refusedCheck("Paddle", response.status, "transaction.read");
        const customers = await get(credentials.apiKey!, "/customers?per_page=1");
        if (!isOk(customers.status)) return refusedCheck("Paddle", customers.status === 401 ? 403 : customers.status, "customer.read");
        return ok({ providerAccountId: accountId!, name: null });
      } catch (error) {
        if (error instanceof ProviderUnavailable) return unreachable("Paddle", error.message);
        throw error;
      }
    },
    sync: {
      kind: "revenue",
      async page(credentials, _integration, cursor) {
        const after = cursor ? `&after=${encodeURIComponent(cursor)}` : "";
        const response = await get(credentials.apiKey!, `/transactions?status=completed&order_by=id[ASC]&per_page=${PAGE_SIZE}${after}`);
        if (!isOk(response.status)) throw pageFailure("Paddle", response.status);
        const body = obj(response.json) ?? {};
        const data = Array.isArray(body.data) ? body.data.map((item) => obj(item) ?? {}) : [];
        const hasMore = obj(obj(body.meta)?.pagination)?.has_more === true;
        const now = new Date();
        return {
          records: data.map((transaction) => paddleTransaction(transaction, now)),
          next: hasMore && data.length > 0 ? (str(data[data.length - 1]!.id) ?? null) : null,
        };
      },
    },
    async customerEmail(credentials, customerId) {
      const response = await get(credentials.apiKey!, `/customers/${encodeURIComponent(customerId)}`);
      if (response.status === 404) return null;
      if (!isOk(response.status)) throw pageFailure("Paddle", response.status);
      return email(obj(obj(response.json)?.data)?.email) ?? null;
    },
  };
}
