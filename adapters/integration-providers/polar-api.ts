import { polarOrder } from "../../core/integrations/providers/polar.js";
import { obj, str } from "../../core/integrations/providers/payload.js";
import { skipped } from "../../core/integrations/model.js";
import type { HttpClient } from "../../core/ports/http-client.js";
import { fail, ok } from "../../core/shared/result.js";
import { badRequest } from "../../core/shared/errors.js";
import { ProviderUnavailable } from "../../core/integrations/ports.js";
import type { ProviderApi } from "./provider-api.js";
import { callProvider, isOk, pageFailure, refusedCheck, unreachable } from "./provider-http.js";

const BASE = "https://api.polar.sh/v1";
const PAGE_SIZE = 100;

/** Polar: organization access tokens; the organization is resolved from the token; orders page by page number. */
export function polarApi(http: HttpClient): ProviderApi {
  const get = (apiKey: string, path: string) => callProvider(http, { method: "GET", url: `${BASE}${path}`, headers: { authorization: `Bearer ${apiKey}` } });
  return {
    async verify(credentials) {
      try {
        const organizations = await get(credentials.apiKey!, "/organizations/?limit=1");
        if (!isOk(organizations.status)) return refusedCheck("Polar", organizations.status, "organizations:read");
        const organization = obj(Array.isArray(obj(organizations.json)?.items) ? (obj(organizations.json)!.items as unknown[])[0] : undefined);
        const id = str(organization?.id);
        if (!id) return fail(badRequest("The Polar token belongs to no organization: create an organization access token", { code: "invalid_credentials" }));
        const orders = await get(credentials.apiKey!, "/orders/?limit=1");
        if (!isOk(orders.status)) return refusedCheck("Polar", orders.status === 401 ? 403 : orders.status, "orders:read");
        return ok({ providerAccountId: id, name: str(organization?.name) ?? null });
      } catch (error) {
        if (error instanceof ProviderUnavailable) return unreachable("Polar", error.message);
        throw error;
      }
    },
    sync: {
      kind: "revenue",
      async page(credentials, _integration, cursor) {
        const page = Number(cursor ?? "1");
        const response = await get(credentials.apiKey!, `/orders/?page=${page}&limit=${PAGE_SIZE}&sorting=created_at`);
        if (!isOk(response.status)) throw pageFailure("Polar", response.status);
        const body = obj(response.json) ?? {};
        const items = Array.isArray(body.items) ? body.items : [];
        const maxPage = Number(obj(body.pagination)?.max_page ?? page);
        const now = new Date();
        return {
          records: items.map((item) => {
            const order = obj(item) ?? {};
            return str(order.status) === "pending" || order.paid === false ? skipped("the order is not paid") : polarOrder(order, now);
          }),
          next: page < maxPage && items.length > 0 ? String(page + 1) : null,
        };
      },
    },
  };
}
