import type { CompanyProfile, CompanyProfileChanges, Profile, ProfileKind, SenderProfile } from "./model.js";
import type { DomainCheck, MailTargets, SendingDomain, VerifiedBy } from "./sending-domain.js";
import type { SendingDomainStatus } from "./model.js";
import { token } from "../shared/token.js";

export interface NewProfile {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly at: Date;
}

/**
 * One PATCH of the company profile, applied in one transaction: the profiles it creates or
 * renames and the company columns it changes (which may point at the new profiles).
 */
export interface CompanyProfileUpdate {
  readonly changes: CompanyProfileChanges;
  readonly createProfiles: ReadonlyArray<NewProfile & { readonly kind: ProfileKind }>;
  readonly renameProfiles: ReadonlyArray<{ readonly kind: ProfileKind; readonly id: string; readonly name: string }>;
  readonly at: Date;
}

/** The profile columns of `companies`. */
export interface CompanyProfileRepository {
  find(companyId: string): Promise<CompanyProfile | null>;
  /** False when the company does not exist. */
  apply(companyId: string, update: CompanyProfileUpdate): Promise<boolean>;
}
export const CompanyProfileRepository = token<CompanyProfileRepository>("lifecycle.CompanyProfileRepository");

/** Sender and reply profiles. Every method names the company. */
export interface ProfileRepository {
  /** Oldest first, each sender with its sending domain. */
  listSenders(companyId: string): Promise<SenderProfile[]>;
  listReplies(companyId: string): Promise<Profile[]>;
  findSender(companyId: string, id: string): Promise<SenderProfile | null>;
  findReply(companyId: string, id: string): Promise<Profile | null>;
  /** Creates a sender profile linked to the company's sending domain of its address, when there is one. */
  insertSender(companyId: string, profile: NewProfile): Promise<SenderProfile>;
  /** False when the company has no such profile. */
  rename(companyId: string, kind: ProfileKind, id: string, name: string, at: Date): Promise<boolean>;
  deleteSender(companyId: string, id: string): Promise<boolean>;
}
export const ProfileRepository = token<ProfileRepository>("lifecycle.ProfileRepository");

export interface DomainVerification {
  readonly status: SendingDomainStatus;
  readonly verifiedBy: VerifiedBy | null;
  readonly verifiedAt: Date | null;
  readonly lastCheck: DomainCheck | null;
  readonly lastCheckedAt: Date | null;
  readonly at: Date;
}

/** A company's sending domains. */
export interface SendingDomainRepository {
  /** Alphabetical by domain. */
  list(companyId: string): Promise<SendingDomain[]>;
  find(companyId: string, id: string): Promise<SendingDomain | null>;
  findByName(companyId: string, domain: string): Promise<SendingDomain | null>;
  /** False when the company already has the domain. Links the company's sender profiles on the domain. */
  insert(domain: SendingDomain): Promise<boolean>;
  update(companyId: string, id: string, verification: DomainVerification): Promise<void>;
  /** Sender profiles on the domain keep their address and can no longer send. */
  delete(companyId: string, id: string): Promise<boolean>;
}
export const SendingDomainRepository = token<SendingDomainRepository>("lifecycle.SendingDomainRepository");

export interface DkimKeyPair {
  /** Base64 SubjectPublicKeyInfo (the DKIM record's `p=`). */
  readonly publicKey: string;
  /** PKCS#8 PEM. */
  readonly privateKey: string;
}

/** Fresh RSA-2048 DKIM key pairs. */
export interface DkimKeyGenerator {
  generate(): Promise<DkimKeyPair>;
}
export const DkimKeyGenerator = token<DkimKeyGenerator>("lifecycle.DkimKeyGenerator");

/** Where published records point (derived from BASE_URL's host). */
export const MailTargetsToken = token<MailTargets>("lifecycle.MailTargets");
