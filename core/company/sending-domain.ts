import type { DnsLookup } from "../ports/dns-resolver.js";
import type { SendingDomainStatus } from "./model.js";

/**
 * A domain a company sends from, its DKIM key pair, and the DNS records that prove it is
 * theirs. Verified by a DNS check of every record, or by the operator (CLI) who vouches for it.
 */
export type VerifiedBy = "dns" | "operator";

export interface SendingDomain {
  readonly id: string;
  readonly companyId: string;
  readonly domain: string;
  readonly status: SendingDomainStatus;
  readonly verifiedBy: VerifiedBy | null;
  readonly dkimSelector: string;
  /** Base64 SubjectPublicKeyInfo, as published in the DKIM record's `p=`. */
  readonly dkimPublicKey: string;
  /** The private key sealed with the SecretBox; opened only to sign. */
  readonly dkimPrivateKeySealed: string;
  readonly lastCheck: DomainCheck | null;
  readonly verifiedAt: Date | null;
  readonly lastCheckedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const RECORD_PURPOSES = ["dkim", "spf", "dmarc", "return_path"] as const;
export type RecordPurpose = (typeof RECORD_PURPOSES)[number];

/** One record the company publishes. */
export interface DnsRecord {
  readonly purpose: RecordPurpose;
  readonly type: "TXT" | "CNAME";
  readonly name: string;
  readonly value: string;
}

/** `verified`: found as expected; `missing`: nothing there; `mismatch`: something else there; `unreachable`: the lookup failed. */
export type RecordStatus = "verified" | "missing" | "mismatch" | "unreachable";

/** One record looked up: of a sending domain, or (with its own purposes) of a landing page domain. */
export interface RecordCheck<Purpose extends string = RecordPurpose> {
  readonly purpose: Purpose;
  readonly status: RecordStatus;
  /** What was wrong, in words (null when verified). */
  readonly problem: string | null;
  /** What the lookup found. */
  readonly found: readonly string[];
}

export interface DomainCheck {
  readonly checkedAt: string;
  readonly records: readonly RecordCheck[];
}

/**
 * Where the published records point: the SPF include and the return-path CNAME target, both
 * under the host of BASE_URL (`_spf.<host>`, `bounces.<host>`), so one setting names the service.
 */
export interface MailTargets {
  readonly spfInclude: string;
  readonly returnPathTarget: string;
}

export const mailTargetsFor = (serviceHost: string): MailTargets => ({
  spfInclude: `_spf.${serviceHost}`,
  returnPathTarget: `bounces.${serviceHost}`,
});

export const RETURN_PATH_LABEL = "bounces";

/** The records to publish for a domain, in the order they are shown. */
export function recordsFor(domain: Pick<SendingDomain, "domain" | "dkimSelector" | "dkimPublicKey">, targets: MailTargets): DnsRecord[] {
  return [
    { purpose: "dkim", type: "TXT", name: `${domain.dkimSelector}._domainkey.${domain.domain}`, value: `v=DKIM1; k=rsa; p=${domain.dkimPublicKey}` },
    { purpose: "spf", type: "TXT", name: domain.domain, value: `v=spf1 include:${targets.spfInclude} ~all` },
    { purpose: "dmarc", type: "TXT", name: `_dmarc.${domain.domain}`, value: "v=DMARC1; p=none;" },
    { purpose: "return_path", type: "CNAME", name: `${RETURN_PATH_LABEL}.${domain.domain}`, value: targets.returnPathTarget },
  ];
}

/** `k=v; k=v` tags of DKIM and DMARC records, keys lower-cased, white space removed from values. */
function tagsOf(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(";")) {
    const at = part.indexOf("=");
    if (at > 0) tags.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).replace(/\s+/g, ""));
  }
  return tags;
}

const normaliseHost = (name: string): string => name.trim().toLowerCase().replace(/\.$/, "");

type Judge = (values: readonly string[]) => { ok: true } | { ok: false; problem: string };

function judges(record: DnsRecord, publicKey: string, targets: MailTargets): Judge {
  switch (record.purpose) {
    case "dkim":
      return (values) => {
        const key = values.map(tagsOf).find((tags) => tags.has("p"));
        if (!key) return { ok: false, problem: "no DKIM record (v=DKIM1 with p=) was found" };
        return key.get("p") === publicKey ? { ok: true } : { ok: false, problem: "the DKIM record's public key (p=) is not this domain's key" };
      };
    case "spf":
      return (values) => {
        const spf = values.filter((value) => /^v=spf1(\s|$)/i.test(value.trim()));
        if (spf.length === 0) return { ok: false, problem: "no SPF record (v=spf1) was found" };
        if (spf.length > 1) return { ok: false, problem: "several SPF records were found; a domain must have exactly one" };
        const includes = spf[0]!.trim().toLowerCase().split(/\s+/);
        return includes.includes(`include:${targets.spfInclude}`)
          ? { ok: true }
          : { ok: false, problem: `the SPF record does not include ${targets.spfInclude}` };
      };
    case "dmarc":
      return (values) =>
        values.some((value) => /^v=DMARC1(\s*;|$)/i.test(value.trim())) ? { ok: true } : { ok: false, problem: "no DMARC record (v=DMARC1) was found" };
    case "return_path":
      return (values) =>
        values.map(normaliseHost).includes(targets.returnPathTarget)
          ? { ok: true }
          : { ok: false, problem: `the CNAME points to ${values.join(", ")} instead of ${targets.returnPathTarget}` };
  }
}

/** Judges one record from its lookup. */
export function checkRecord(record: DnsRecord, lookup: DnsLookup, publicKey: string, targets: MailTargets): RecordCheck {
  if (lookup.kind === "error")
    return { purpose: record.purpose, status: "unreachable", problem: `the DNS lookup of ${record.name} failed: ${lookup.message}`, found: [] };
  if (lookup.kind === "none") return { purpose: record.purpose, status: "missing", problem: `no ${record.type} record at ${record.name}`, found: [] };
  const verdict = judges(record, publicKey, targets)(lookup.values);
  return verdict.ok
    ? { purpose: record.purpose, status: "verified", problem: null, found: lookup.values }
    : { purpose: record.purpose, status: "mismatch", problem: verdict.problem, found: lookup.values };
}

/**
 * The domain's status after a check: verified when every record is; failed when a record holds
 * something else; pending while records are only missing (or lookups failed). A domain the
 * operator verified stays verified: the operator vouches for it whatever DNS says.
 */
export function statusAfterCheck(current: SendingDomain, records: readonly RecordCheck[]): SendingDomainStatus {
  if (current.verifiedBy === "operator") return "verified";
  if (records.every((record) => record.status === "verified")) return "verified";
  if (records.some((record) => record.status === "mismatch")) return "failed";
  return "pending";
}

/** A DKIM selector naming the key's month, so a rotated key gets a new name. */
export const dkimSelectorFor = (at: Date): string => `lc${at.toISOString().slice(0, 7).replace("-", "")}`;
