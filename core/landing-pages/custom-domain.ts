import type { RecordCheck } from "../company/sending-domain.js";
import type { DnsLookup } from "../ports/dns-resolver.js";

/**
 * A custom domain of landing pages. The company's domain (no page) serves each published page at
 * `https://{domain}/{slug}`; a page's own domain serves that page at `https://{domain}/`. It is
 * served once verified: the TXT record under `_lc-verify.{domain}` holds the claim's token, which
 * proves the company controls the name. The CNAME to the service is how visitors reach it; it is
 * checked and shown, but a domain may reach the service another way (an apex's A record).
 */
export const LANDING_DOMAIN_STATUSES = ["pending", "verified", "failed"] as const;
export type LandingDomainStatus = (typeof LANDING_DOMAIN_STATUSES)[number];

export type DomainRecordPurpose = "ownership" | "routing";
/** A record looked up, as a sending domain's are. */
export type DomainRecordCheck = RecordCheck<DomainRecordPurpose>;

export interface LandingDomain {
  readonly id: string;
  readonly companyId: string;
  /** Null: the company's domain, for all its pages. */
  readonly landingPageId: string | null;
  readonly domain: string;
  readonly verificationToken: string;
  readonly status: LandingDomainStatus;
  readonly lastCheck: readonly DomainRecordCheck[] | null;
  readonly verifiedAt: Date | null;
  readonly lastCheckedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface DomainRecord {
  readonly purpose: DomainRecordPurpose;
  readonly type: "TXT" | "CNAME";
  readonly name: string;
  readonly value: string;
  /** Whether verification waits for it. */
  readonly required: boolean;
}

export const VERIFY_LABEL = "_lc-verify";

/** The records to publish: ownership first. `serviceHost` is BASE_URL's host. */
export const domainRecordsFor = (domain: Pick<LandingDomain, "domain" | "verificationToken">, serviceHost: string): DomainRecord[] => [
  { purpose: "ownership", type: "TXT", name: `${VERIFY_LABEL}.${domain.domain}`, value: `lc-verify=${domain.verificationToken}`, required: true },
  { purpose: "routing", type: "CNAME", name: domain.domain, value: serviceHost, required: false },
];

export function checkDomainRecord(record: DomainRecord, lookup: DnsLookup): DomainRecordCheck {
  const { purpose, name, type, value } = record;
  if (lookup.kind === "error") return { purpose, status: "unreachable", problem: `the DNS lookup of ${name} failed: ${lookup.message}`, found: [] };
  if (lookup.kind === "none") return { purpose, status: "missing", problem: `no ${type} record at ${name}`, found: [] };
  const found = lookup.values;
  const matches = found.some((one) => (type === "TXT" ? one.trim() === value : one.toLowerCase() === value.toLowerCase()));
  return matches
    ? { purpose, status: "verified", problem: null, found }
    : { purpose, status: "mismatch", problem: `${name} holds ${found.join(", ")} instead of ${value}`, found };
}

/**
 * After a check: verified when the ownership record is; failed when it holds something else;
 * pending while it is missing. A lookup that failed says nothing: the status stays as it was, so
 * a DNS outage never takes a served domain down.
 */
export function domainStatusAfter(current: LandingDomainStatus, checks: readonly DomainRecordCheck[]): LandingDomainStatus {
  const ownership = checks.find((check) => check.purpose === "ownership");
  switch (ownership?.status) {
    case "verified":
      return "verified";
    case "mismatch":
      return "failed";
    case "missing":
      return "pending";
    default:
      return current;
  }
}

/** The service's own host and its subdomains are not a company's to claim. */
export const isServiceDomain = (domain: string, serviceHost: string): boolean => domain === serviceHost || domain.endsWith(`.${serviceHost}`);
