import { creemOrder } from "../../core/integrations/providers/creem.js";
import { email, obj, splitName, str, type Customer } from "../../core/integrations/providers/payload.js";
import { skipped } from "../../core/integrations/model.js";
import { ProviderUnavailable } from "../../core/integrations/ports.js";
import type { HttpClient } from "../../core/ports/http-client.js";
import { ok } from "../../core/shared/result.js";
import type { ProviderApi } from "./provider-api.js";
import { callProvider, isOk, pageFailure, refusedCheck, unreachable } from "./provider-http.js";

const PAGE_SIZE = 100;

/** Test keys (`creem_test_...`) belong to the test API. */
export const creemBase = (apiKey: string): string => (apiKey.startsWith("creem_test_") ? "https://test-api.creem.io" : "https://api.creem.io");

/** Creem: the store ID is given; transactions page by number and name their customer by ID, looked up once per page. */
export function creemApi(http: HttpClient): ProviderApi {
  const get = (apiKey: string, path: string) => callProvider(http, { method: "GET", url: `${creemBase(apiKey)}${path}`, headers: { "x-api-key": apiKey } });
  return {
    async verify(credentials, accountId) {
      try {
        const response = await get(credentials.apiKey!, "/v1/transactions/search?page_size=1");
        if (!isOk(response.status)) return refusedCheck("Creem", response.status, "transactions read");
        return ok({ providerAccountId: accountId!, name: null });
      } catch (error) {
        if (error instanceof ProviderUnavailable) return unreachable("Creem", error.message);
        throw error;
      }
    },
    sync: {
      kind: "revenue",
      async page(credentials, _integration, cursor) {
        const page = Number(cursor ?? "1");
        const response = await get(credentials.apiKey!, `/v1/transactions/search?page_number=${page}&page_size=${PAGE_SIZE}`);
        if (!isOk(response.status)) throw pageFailure("Creem", response.status);
        const body = obj(response.json) ?? {};
        const items = (Array.isArray(body.items) ? body.items : []).map((item) => obj(item) ?? {});
        const customers = new Map<string, Customer>();
        for (const id of new Set(items.map((item) => str(item.customer)).filter((id): id is string => id !== undefined))) {
          const found = await get(credentials.apiKey!, `/v1/customers?customer_id=${encodeURIComponent(id)}`);
          if (!isOk(found.status)) continue;
          const customer = obj(found.json) ?? {};
          customers.set(id, { email: email(customer.email), id, ...splitName(customer.name) });
        }
        const now = new Date();
        const next = obj(body.pagination)?.next_page;
        return {
          records: items.map((item) => {
            const customer = customers.get(str(item.customer) ?? "");
            if (str(item.status) !== undefined && str(item.status) !== "paid") return skipped(`the transaction is ${str(item.status)}`);
            return customer ? creemOrder({ ...item, id: str(item.order) ?? item.id }, customer, {}, now) : skipped("the transaction's customer is unknown");
          }),
          next: typeof next === "number" && items.length > 0 ? String(next) : null,
        };
      },
    },
  };
}
