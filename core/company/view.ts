import { resolveEmailTheme, type EmailTheme, type StoredEmailTheme } from "./email-theme.js";
import { canSend, type CompanyProfile, type Profile, type ReplyTrackingDomainMode, type SenderProfile, type SendingDomainStatus } from "./model.js";
import { recordsFor, type DnsRecord, type MailTargets, type RecordCheck, type SendingDomain, type VerifiedBy } from "./sending-domain.js";

/** The Company resource (spec), plus the stored and resolved email theme. */
export interface CompanyView {
  readonly id: string;
  readonly name: string;
  readonly primaryColor: string | null;
  /** What the company set (null: the platform default). */
  readonly emailTheme: StoredEmailTheme | null;
  /** The theme emails are rendered with. */
  readonly resolvedEmailTheme: EmailTheme;
  readonly brandColors: Readonly<Record<string, unknown>>;
  readonly description: string | null;
  readonly companyContext: string | null;
  readonly toneVoice: string | null;
  readonly emailLengthPreference: string | null;
  readonly valueProps: readonly unknown[];
  readonly defaultSenderProfileId: string | null;
  readonly defaultFromName: string | null;
  readonly defaultFromEmail: string | null;
  readonly defaultReplyProfileId: string | null;
  readonly defaultReplyToName: string | null;
  readonly defaultReplyToEmail: string | null;
  readonly replyTrackingEnabled: boolean;
  readonly replyTrackingDomainMode: ReplyTrackingDomainMode;
  readonly forwardReplies: boolean;
  readonly replyRetentionDays: number;
  readonly createdAt: string;
}

export function toCompanyView(company: CompanyProfile, sender: Profile | null, reply: Profile | null): CompanyView {
  return {
    id: company.id,
    name: company.name,
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

export interface SenderProfileView {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly domainId: string | null;
  readonly domain: string | null;
  readonly domainStatus: SendingDomainStatus | null;
  readonly canSend: boolean;
  readonly isDefault: boolean;
  readonly createdAt: string;
}

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

export interface ReplyProfileView {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly isDefault: boolean;
  readonly createdAt: string;
}

export const toReplyProfileView = (profile: Profile, defaultId: string | null): ReplyProfileView => ({
  id: profile.id,
  name: profile.name,
  email: profile.email,
  isDefault: profile.id === defaultId,
  createdAt: profile.createdAt.toISOString(),
});

/** A record to publish, with the outcome of the last check (null before any check). */
export interface DnsRecordView extends DnsRecord {
  readonly status: RecordCheck["status"] | null;
  readonly problem: string | null;
  readonly found: readonly string[];
}

export interface SendingDomainView {
  readonly id: string;
  readonly domain: string;
  readonly status: SendingDomainStatus;
  readonly verifiedBy: VerifiedBy | null;
  readonly canSend: boolean;
  readonly dkimSelector: string;
  readonly records: readonly DnsRecordView[];
  readonly verifiedAt: string | null;
  readonly lastCheckedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

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
      return { ...record, status: check?.status ?? null, problem: check?.problem ?? null, found: check?.found ?? [] };
    }),
    verifiedAt: domain.verifiedAt?.toISOString() ?? null,
    lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
    createdAt: domain.createdAt.toISOString(),
    updatedAt: domain.updatedAt.toISOString(),
  };
}
