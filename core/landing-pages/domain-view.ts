import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { domainRecordsFor, LANDING_DOMAIN_STATUSES, type LandingDomain } from "./custom-domain.js";

export const DomainRecordView = view(
  {
    purpose: oneOf(["ownership", "routing"] as const, "DomainRecordPurpose"),
    type: t.string,
    name: t.string,
    value: t.string,
    required: t.boolean,
    /** The last check's verdict; null before the first check. */
    status: NullableString,
    problem: NullableString,
    found: t.readonlyArray(t.string),
  },
  "LandingDomainRecord",
);

/** A landing page custom domain: the records to publish, the last check, and where pages are served once verified. */
export const LandingDomainView = view(
  {
    id: Id,
    domain: t.string,
    landingPageId: NullableString,
    status: oneOf(LANDING_DOMAIN_STATUSES, "LandingDomainStatus"),
    verified: t.boolean,
    url: t.string,
    records: t.readonlyArray(DomainRecordView),
    verifiedAt: NullableTimestamp,
    lastCheckedAt: NullableTimestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "LandingDomain",
);
export type LandingDomainView = t.TypeOf<typeof LandingDomainView>;

export function toLandingDomainView(domain: LandingDomain, serviceHost: string): LandingDomainView {
  const checks = new Map(domain.lastCheck?.map((check) => [check.purpose, check]) ?? []);
  return {
    id: domain.id,
    domain: domain.domain,
    landingPageId: domain.landingPageId,
    status: domain.status,
    verified: domain.status === "verified",
    url: `https://${domain.domain}/`,
    records: domainRecordsFor(domain, serviceHost).map((record) => {
      const check = checks.get(record.purpose);
      return { ...record, status: check?.status ?? null, problem: check?.problem ?? null, found: check?.found ?? [] };
    }),
    verifiedAt: domain.verifiedAt?.toISOString() ?? null,
    lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
    createdAt: domain.createdAt.toISOString(),
    updatedAt: domain.updatedAt.toISOString(),
  };
}
