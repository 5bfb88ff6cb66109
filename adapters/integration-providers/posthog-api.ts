import { posthogEvent } from "../../core/integrations/providers/posthog.js";
import { obj } from "../../core/integrations/providers/payload.js";
import type { HistoryImport } from "../../core/integrations/model.js";
import { ProviderUnavailable } from "../../core/integrations/ports.js";
import type { HttpClient } from "../../core/ports/http-client.js";
import { ok } from "../../core/shared/result.js";
import { fingerprint } from "./account-fingerprint.js";
import type { ProviderApi } from "./provider-api.js";
import { callProvider, isOk, pageFailure, refusedCheck, unreachable } from "./provider-http.js";

const PAGE_SIZE = 500;
/** The history import reads this far back. */
export const HISTORY_DAYS = 90;

const host = (history: HistoryImport): string => `https://${history.region}.posthog.com`;

const parsed = (value: unknown): Record<string, unknown> => {
  if (typeof value !== "string") return obj(value) ?? {};
  try {
    return obj(JSON.parse(value)) ?? {};
  } catch {
    return {};
  }
};

/**
 * PostHog: the account is the history project when one is given (else derived from the webhook
 * secret); the personal API key is checked by running a query (it needs query read access); the
 * history import pages the project's events of the last 90 days through HogQL.
 */
export function posthogApi(http: HttpClient): ProviderApi {
  const query = (history: HistoryImport, hogql: string) =>
    callProvider(http, {
      method: "POST",
      url: `${host(history)}/api/projects/${encodeURIComponent(history.projectId)}/query/`,
      headers: { authorization: `Bearer ${history.personalApiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ query: { kind: "HogQLQuery", query: hogql } }),
    });
  return {
    async verify(credentials) {
      const history = credentials.historyImport;
      if (!history) return ok({ providerAccountId: fingerprint("posthog", credentials.webhookSecret), name: null });
      try {
        const response = await query(history, "select 1");
        if (!isOk(response.status)) return refusedCheck("PostHog", response.status, "query:read");
        return ok({ providerAccountId: `${history.region}:${history.projectId}`, name: null });
      } catch (error) {
        if (error instanceof ProviderUnavailable) return unreachable("PostHog", error.message);
        throw error;
      }
    },
    sync: {
      kind: "history",
      async page(credentials, integration, cursor) {
        const history = credentials.historyImport;
        if (!history) return { records: [], next: null };
        const offset = Number(cursor ?? "0");
        const response = await query(
          history,
          `select uuid, event, distinct_id, properties, timestamp, person.properties from events where timestamp > now() - interval ${HISTORY_DAYS} day order by timestamp, uuid limit ${PAGE_SIZE} offset ${offset}`,
        );
        if (!isOk(response.status)) throw pageFailure("PostHog", response.status);
        const rows = Array.isArray(obj(response.json)?.results) ? (obj(response.json)!.results as unknown[]) : [];
        const now = new Date();
        return {
          records: rows.map((row) => {
            const [uuid, event, distinctId, properties, timestamp, personProperties]: unknown[] = Array.isArray(row) ? (row as unknown[]) : [];
            return posthogEvent(
              { uuid, event, distinct_id: distinctId, properties: parsed(properties), timestamp },
              { properties: parsed(personProperties) },
              integration.settings,
              now,
            );
          }),
          next: rows.length === PAGE_SIZE ? String(offset + PAGE_SIZE) : null,
        };
      },
    },
  };
}
