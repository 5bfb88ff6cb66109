import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { resolveEmailTheme, THEME_PRESETS } from "./email-theme.js";
import { canSend, REPLY_TRACKING_DOMAIN_MODES, SENDING_DOMAIN_STATUSES, type CompanyProfile, type Profile, type SenderProfile } from "./model.js";
import { recordsFor, RECORD_PURPOSES, type MailTargets, type SendingDomain } from "./sending-domain.js";

const NullableId = t.union([Id, t.null]);
const ThemePreset = oneOf(THEME_PRESETS, "ThemePreset");
const SendingDomainStatus = oneOf(SENDING_DOMAIN_STATUSES, "SendingDomainStatus");
const ThemeColors = t.record(t.string, t.string);
const ThemeNumbers = t.record(t.string, t.number);

/** The Company resource (spec), plus `status` and `websiteUrl` (compat-reference, GET /companies/{id}) and the stored and resolved email theme. */
export const CompanyView = view(
  {
    id: Id,
    name: t.string,
    /** Always `ready`: a company is usable as soon as it exists (no brand extraction runs in the background). */
    status: t.literal("ready"),
    websiteUrl: NullableString,
    primaryColor: NullableString,
    /** What the company set (null: the platform default). */
    emailTheme: t.union([
      t.exact(
        t.partial({
          presetId: ThemePreset,
          colors: ThemeColors,
          typography: ThemeNumbers,
          layout: ThemeNumbers,
        }),
      ),
      t.null,
    ]),
    /** The theme emails are rendered with. */
    resolvedEmailTheme: view({
      presetId: ThemePreset,
      colors: ThemeColors,
      typography: ThemeNumbers,
      layout: ThemeNumbers,
    }),
    brandColors: t.record(t.string, t.unknown),
    description: NullableString,
    companyContext: NullableString,
    toneVoice: NullableString,
    emailLengthPreference: NullableString,
    valueProps: t.readonlyArray(t.unknown),
    defaultSenderProfileId: NullableId,
    defaultFromName: NullableString,
    defaultFromEmail: NullableString,
    defaultReplyProfileId: NullableId,
    defaultReplyToName: NullableString,
    defaultReplyToEmail: NullableString,
    replyTrackingEnabled: t.boolean,
    replyTrackingDomainMode: oneOf(REPLY_TRACKING_DOMAIN_MODES, "ReplyTrackingDomainMode"),
    forwardReplies: t.boolean,
    replyRetentionDays: t.number,
    createdAt: Timestamp,
  },
  "Company",
);
export type CompanyView = t.TypeOf<typeof CompanyView>;

export function toCompanyView(company: CompanyProfile, sender: Profile | null, reply: Profile | null): CompanyView {
  return {
    id: company.id,
    name: company.name,
    status: "ready",
    websiteUrl: company.websiteUrl,
    primaryColor: company.primaryColor,
    emailTheme: company.emailTheme,
    resolvedEmailTheme: resolveEmailTheme(company.emailTheme, company.primaryColor),
    brandColors: company.brandColors,
    description: company.description,
    companyContext: company.companyContext,
    toneVoice: company.toneVoice,
    emailLengthPreference: company.emailLengthPreference,
    valueProps: company.valueProps,
    defaultSenderProfileId: sender?.id ?? null,
    defaultFromName: sender?.name ?? null,
    defaultFromEmail: sender?.email ?? null,
    defaultReplyProfileId: reply?.id ?? null,
    defaultReplyToName: reply?.name ?? null,
    defaultReplyToEmail: reply?.email ?? null,
    replyTrackingEnabled: company.replyTrackingEnabled,
    replyTrackingDomainMode: company.replyTrackingDomainMode,
    forwardReplies: company.forwardReplies,
    replyRetentionDays: company.replyRetentionDays,
    createdAt: company.createdAt.toISOString(),
  };
}

export const SenderProfileView = view(
  {
    id: Id,
    name: t.string,
    email: t.string,
    domainId: NullableId,
    domain: NullableString,
    domainStatus: t.union([SendingDomainStatus, t.null]),
    canSend: t.boolean,
    isDefault: t.boolean,
    createdAt: Timestamp,
  },
  "SenderProfile",
);
export type SenderProfileView = t.TypeOf<typeof SenderProfileView>;

export const toSenderProfileView = (profile: SenderProfile, defaultId: string | null): SenderProfileView => ({
  id: profile.id,
  name: profile.name,
  email: profile.email,
  domainId: profile.domainId,
  domain: profile.domain,
  domainStatus: profile.domainStatus,
  canSend: canSend(profile),
  isDefault: profile.id === defaultId,
  createdAt: profile.createdAt.toISOString(),
});

export const ReplyProfileView = view(
  {
    id: Id,
    name: t.string,
    email: t.string,
    isDefault: t.boolean,
    createdAt: Timestamp,
  },
  "ReplyProfile",
);
export type ReplyProfileView = t.TypeOf<typeof ReplyProfileView>;

export const toReplyProfileView = (profile: Profile, defaultId: string | null): ReplyProfileView => ({
  id: profile.id,
  name: profile.name,
  email: profile.email,
  isDefault: profile.id === defaultId,
  createdAt: profile.createdAt.toISOString(),
});

/** A record to publish, with the outcome of the last check (null before any check). */
export const DnsRecordView = view(
  {
    purpose: oneOf(RECORD_PURPOSES, "RecordPurpose"),
    type: oneOf(["TXT", "CNAME"], "DnsRecordType"),
    name: t.string,
    value: t.string,
    status: t.union([oneOf(["verified", "missing", "mismatch", "unreachable"], "RecordStatus"), t.null]),
    problem: NullableString,
    found: t.readonlyArray(t.string),
  },
  "DnsRecord",
);
export type DnsRecordView = t.TypeOf<typeof DnsRecordView>;

export const SendingDomainView = view(
  {
    id: Id,
    domain: t.string,
    status: SendingDomainStatus,
    verifiedBy: t.union([oneOf(["dns", "operator"], "VerifiedBy"), t.null]),
    canSend: t.boolean,
    dkimSelector: t.string,
    records: t.readonlyArray(DnsRecordView),
    verifiedAt: NullableTimestamp,
    lastCheckedAt: NullableTimestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "SendingDomain",
);
export type SendingDomainView = t.TypeOf<typeof SendingDomainView>;

export function toSendingDomainView(domain: SendingDomain, targets: MailTargets): SendingDomainView {
  const checks = new Map(domain.lastCheck?.records.map((check) => [check.purpose, check]) ?? []);
  return {
    id: domain.id,
    domain: domain.domain,
    status: domain.status,
    verifiedBy: domain.verifiedBy,
    canSend: domain.status === "verified",
    dkimSelector: domain.dkimSelector,
    records: recordsFor(domain, targets).map((record) => {
      const check = checks.get(record.purpose);
      return {
        ...record,
        status: check?.status ?? null,
        problem: check?.problem ?? null,
        found: check?.found ?? [],
      };
    }),
    verifiedAt: domain.verifiedAt?.toISOString() ?? null,
    lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
    createdAt: domain.createdAt.toISOString(),
    updatedAt: domain.updatedAt.toISOString(),
  };
}
