export const SUBSCRIBER_STATUSES = ["active", "unsubscribed", "bounced"] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export const SMS_STATUSES = ["not_subscribed", "pending", "subscribed", "unsubscribed"] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

export const DUPLICATE_STRATEGIES = ["skip", "merge", "overwrite"] as const;
/** What happens when a contact being created already exists (compat: skip by default). */
export type DuplicateStrategy = (typeof DUPLICATE_STRATEGIES)[number];

export const OPT_IN_MODES = ["default", "confirmed", "double_opt_in"] as const;
export type OptInMode = (typeof OPT_IN_MODES)[number];

/** Custom attribute values keep their JSON types. */
export type AttributeValue = string | number | boolean | null | readonly AttributeValue[] | { readonly [key: string]: AttributeValue };
export type Attributes = Readonly<Record<string, AttributeValue>>;

/** Accounts own the `account` attribute name (spec, Accounts). */
export const RESERVED_ATTRIBUTE = "account";

export interface Subscriber {
  readonly id: string;
  readonly companyId: string;
  /** Lower-cased. */
  readonly email: string;
  readonly externalId: string | null;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly phone: string | null;
  readonly smsStatus: SmsStatus;
  readonly status: SubscriberStatus;
  readonly emailProvider: string | null;
  readonly timezone: string | null;
  readonly customAttributes: Attributes;
  readonly unsubscribedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A subscriber with the names of its tags, as every response shows it. */
export interface TaggedSubscriber extends Subscriber {
  readonly tags: readonly string[];
}

const PROVIDERS: Readonly<Record<string, string>> = {
  "gmail.com": "gmail",
  "googlemail.com": "gmail",
  "outlook.com": "outlook",
  "hotmail.com": "outlook",
  "live.com": "outlook",
  "msn.com": "outlook",
  "yahoo.com": "yahoo",
  "ymail.com": "yahoo",
  "icloud.com": "icloud",
  "me.com": "icloud",
  "mac.com": "icloud",
  "aol.com": "aol",
  "proton.me": "proton",
  "protonmail.com": "proton",
  "gmx.com": "gmx",
  "gmx.de": "gmx",
  "web.de": "webde",
  "yandex.ru": "yandex",
  "zoho.com": "zoho",
  "fastmail.com": "fastmail",
};

/** The mailbox provider of a consumer address (`gmail`, `outlook`...), null for other domains. */
export function emailProviderOf(email: string): string | null {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return PROVIDERS[domain] ?? null;
}

/** Domains of consumer mailboxes: a contact's work domain is any other. */
export const isConsumerDomain = (domain: string): boolean => Object.hasOwn(PROVIDERS, domain.toLowerCase());
