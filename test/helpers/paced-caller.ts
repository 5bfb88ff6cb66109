import type { CompanyFixture } from "../../fixtures/companies.js";
import { createMemberKeyFixture } from "../../fixtures/companies.js";
import type { ApiFixture } from "./api-fixture.js";
import type { JsonResponse, RequestOptions } from "./http-client.js";

export type PacedCall = (method: string, path: string, options?: Omit<RequestOptions, "key">) => Promise<JsonResponse>;

/** Requests spread over several keys of the company's owner, each kept under the per-key limit of 20 a second. */
export async function pacedCaller(api: Pick<ApiFixture, "runtime" | "call">, company: CompanyFixture, keys = 4): Promise<PacedCall> {
  const ring = [company.ownerKey];
  for (let i = 1; i < keys; i++)
    ring.push((await createMemberKeyFixture(api.runtime.container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
  const lastUse = new Map<string, number>();
  let next = 0;
  return async (method, path, options = {}) => {
    const key = ring[next++ % ring.length]!;
    const wait = (lastUse.get(key) ?? 0) + 60 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    lastUse.set(key, Date.now());
    return api.call(method, path, { ...options, key });
  };
}
