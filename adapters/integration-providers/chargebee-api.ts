import { chargebeeInvoice } from "../../core/integrations/providers/chargebee.js";
import { email, obj, str, type Customer } from "../../core/integrations/providers/payload.js";
import { skipped } from "../../core/integrations/model.js";
import { ProviderUnavailable } from "../../core/integrations/ports.js";
import type { HttpClient } from "../../core/ports/http-client.js";
import { ok } from "../../core/shared/result.js";
import type { ProviderApi } from "./provider-api.js";
import { callProvider, isOk, pageFailure, refusedCheck, unreachable } from "./provider-http.js";

const PAGE_SIZE = 100;

/** Chargebee: the site name (checked as a host label when connecting) names the API; basic auth with the key; paid invoices page by offset. */
export function chargebeeApi(http: HttpClient): ProviderApi {
  const get = (apiKey: string, site: string, path: string) =>
    callProvider(http, {
      method: "GET",
      url: `https://${site}.chargebee.com/api/v2${path}`,
      headers: { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}` },
    });
  return {
    async verify(credentials, accountId) {
      try {
        const response = await get(credentials.apiKey!, accountId!, "/subscriptions?limit=1");
        if (!isOk(response.status)) return refusedCheck("Chargebee", response.status, "read-only access to subscriptions and invoices");
        return ok({ providerAccountId: accountId!, name: null });
      } catch (error) {
        if (error instanceof ProviderUnavailable) return unreachable("Chargebee", error.message);
        throw error;
      }
    },
    sync: {
      kind: "revenue",
      async page(credentials, { providerAccountId: site }, cursor) {
        const offset = cursor ? `&offset=${encodeURIComponent(cursor)}` : "";
        const response = await get(credentials.apiKey!, site, `/invoices?limit=${PAGE_SIZE}&status[is]=paid&sort_by[asc]=date${offset}`);
        if (!isOk(response.status)) throw pageFailure("Chargebee", response.status);
        const body = obj(response.json) ?? {};
        const invoices = (Array.isArray(body.list) ? body.list : []).map((entry) => obj(obj(entry)?.invoice) ?? {});
        const customers = new Map<string, Customer>();
        for (const id of new Set(invoices.map((invoice) => str(invoice.customer_id)).filter((id): id is string => id !== undefined))) {
          const found = await get(credentials.apiKey!, site, `/customers/${encodeURIComponent(id)}`);
          if (!isOk(found.status)) continue;
          const customer = obj(obj(found.json)?.customer) ?? {};
          customers.set(id, { email: email(customer.email), id, firstName: str(customer.first_name), lastName: str(customer.last_name) });
        }
        const now = new Date();
        return {
          records: invoices.map((invoice) => {
            const customer = customers.get(str(invoice.customer_id) ?? "");
            return customer ? chargebeeInvoice(invoice, customer, now) : skipped("the invoice's customer is unknown");
          }),
          next: str(body.next_offset) ?? null,
        };
      },
    },
  };
}
