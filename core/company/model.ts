import { badRequest, notFound } from "../shared/errors.js";
import type { StoredEmailTheme } from "./email-theme.js";

/** A company's profile: brand, voice, default identities and reply handling (spec, Company). */

export const REPLY_TRACKING_DOMAIN_MODES = ["service", "custom"] as const;
export type ReplyTrackingDomainMode = (typeof REPLY_TRACKING_DOMAIN_MODES)[number];

export interface CompanyProfile {
  readonly id: string;
  readonly name: string;
  readonly websiteUrl: string | null;
  readonly primaryColor: string | null;
  /** What the company set (null: the platform default); rendered through resolveEmailTheme. */
  readonly emailTheme: StoredEmailTheme | null;
  readonly brandColors: Readonly<Record<string, unknown>>;
  readonly description: string | null;
  readonly companyContext: string | null;
  readonly toneVoice: string | null;
  readonly emailLengthPreference: string | null;
  readonly valueProps: readonly unknown[];
  readonly defaultSenderProfileId: string | null;
  readonly defaultReplyProfileId: string | null;
  readonly replyTrackingEnabled: boolean;
  readonly replyTrackingDomainMode: ReplyTrackingDomainMode;
  readonly forwardReplies: boolean;
  readonly replyRetentionDays: number;
  readonly createdAt: Date;
}

/** The columns PATCH /companies/{id} may change. */
export type CompanyProfileChanges = Partial<
  Pick<
    CompanyProfile,
    | "name"
    | "primaryColor"
    | "emailTheme"
    | "brandColors"
    | "description"
    | "companyContext"
    | "toneVoice"
    | "valueProps"
    | "defaultSenderProfileId"
    | "defaultReplyProfileId"
    | "replyTrackingEnabled"
    | "replyTrackingDomainMode"
    | "forwardReplies"
  >
>;

export type ProfileKind = "sender" | "reply";

/** A From (sender) or Reply-To identity: a display name and an address. */
export interface Profile {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly email: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const SENDING_DOMAIN_STATUSES = ["pending", "verified", "failed"] as const;
export type SendingDomainStatus = (typeof SENDING_DOMAIN_STATUSES)[number];

/** A sender profile with the sending domain it is on (the domain row may be gone: null). */
export interface SenderProfile extends Profile {
  readonly domainId: string | null;
  readonly domain: string | null;
  readonly domainStatus: SendingDomainStatus | null;
}

/** From addresses must be on a verified sending domain (spec). */
export const canSend = (profile: SenderProfile): boolean => profile.domainStatus === "verified";

export const COMPANY_NOT_FOUND = notFound("Company not found");
export const SENDER_PROFILE_NOT_FOUND = notFound("Sender profile not found");
export const REPLY_PROFILE_NOT_FOUND = notFound("Reply profile not found");
export const SENDING_DOMAIN_NOT_FOUND = notFound("Sending domain not found");
export const NO_SUPPORTED_FIELDS = badRequest("No supported fields provided");

/** The domain part of an address, lower-cased. */
export const domainOf = (email: string): string => email.slice(email.lastIndexOf("@") + 1).toLowerCase();
