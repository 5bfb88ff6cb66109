import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { NullableString, view } from "../shared/view-fields.js";
import type { RecordPurpose } from "./sending-domain.js";
import { DnsRecordView, SendingDomainView } from "./view.js";

/**
 * A sending domain in the official client's words (`/websites`, compat-reference appendix): the
 * sending-domain record plus what the client reads: `dnsVerified` (every record found as
 * published at the last check), `readyToSend` with `readiness.reason` when it cannot send yet,
 * `dnsRecords` keyed by record, and one status per mechanism (`dkim`, `spf`, `dmarc`, `mailFrom`).
 * A domain the operator vouched for is ready to send whatever its DNS shows, so `dnsVerified`
 * and `readyToSend` are told apart.
 */

/** A record's state at the last check; `not_checked` before the first one. */
const MechanismStatus = oneOf(["verified", "missing", "mismatch", "unreachable", "not_checked"], "MechanismStatus");
const MechanismView = view({ status: MechanismStatus, problem: NullableString }, "WebsiteMechanism");

export const WebsiteView = view(
  {
    ...SendingDomainView.type.props,
    dnsVerified: t.boolean,
    readyToSend: t.boolean,
    readiness: view({ readyToSend: t.boolean, reason: NullableString }, "WebsiteReadiness"),
    dnsRecords: view({ dkimRecord: DnsRecordView, spfRecord: DnsRecordView, dmarcRecord: DnsRecordView, returnPathRecord: DnsRecordView }, "WebsiteDnsRecords"),
    dkim: MechanismView,
    spf: MechanismView,
    dmarc: MechanismView,
    mailFrom: MechanismView,
  },
  "Website",
);
export type WebsiteView = t.TypeOf<typeof WebsiteView>;

function recordOf(domain: SendingDomainView, purpose: RecordPurpose): DnsRecordView {
  const record = domain.records.find((candidate) => candidate.purpose === purpose);
  if (!record) throw new Error(`sending domain ${domain.id} has no ${purpose} record`);
  return record;
}

const mechanism = (record: DnsRecordView): t.TypeOf<typeof MechanismView> => ({ status: record.status ?? "not_checked", problem: record.problem });

/** Why a domain cannot send yet, in words (null when it can). */
function reasonNotReady(domain: SendingDomainView, path: string): string | null {
  if (domain.canSend) return null;
  if (domain.lastCheckedAt === null) return `Publish the records in dnsRecords, then verify the domain (POST ${path}/verify).`;
  const problems = domain.records.filter((record) => record.problem !== null).map((record) => `${record.purpose}: ${record.problem}`);
  const state = domain.status === "failed" ? "Some DNS records hold something else" : "Some DNS records are not published yet";
  return `${state} (${problems.join("; ")}); fix them, then verify again (POST ${path}/verify).`;
}

export function toWebsiteView(domain: SendingDomainView): WebsiteView {
  const dkimRecord = recordOf(domain, "dkim");
  const spfRecord = recordOf(domain, "spf");
  const dmarcRecord = recordOf(domain, "dmarc");
  const returnPathRecord = recordOf(domain, "return_path");
  return {
    ...domain,
    dnsVerified: domain.records.every((record) => record.status === "verified"),
    readyToSend: domain.canSend,
    readiness: { readyToSend: domain.canSend, reason: reasonNotReady(domain, `/api/v1/websites/${domain.domain}`) },
    dnsRecords: { dkimRecord, spfRecord, dmarcRecord, returnPathRecord },
    dkim: mechanism(dkimRecord),
    spf: mechanism(spfRecord),
    dmarc: mechanism(dmarcRecord),
    mailFrom: mechanism(returnPathRecord),
  };
}
