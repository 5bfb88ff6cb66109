import { notFound } from "../shared/errors.js";

export const MAX_LIST_NAME_LENGTH = 255;
export const MAX_LIST_DESCRIPTION_LENGTH = 2000;
/** Emails one membership call may name (compat-reference §8). */
export const MAX_MEMBERSHIP_EMAILS = 500;

export interface List {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly description: string | null;
  /** Hidden from the hosted preference page. */
  readonly isPrivate: boolean;
  /** Members may leave the list from the preference page. */
  readonly allowMemberUnsubscribe: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A list with its member counts. */
export interface ListWithCounts extends List {
  /** Every membership, whatever the contact's status or the membership's. */
  readonly subscriberCount: number;
  /** Members whose contact is active and who have not left the list. */
  readonly activeSubscriberCount: number;
}

/** Fields a PATCH may change. */
export interface ListChanges {
  readonly name?: string;
  readonly description?: string | null;
  readonly isPrivate?: boolean;
  readonly allowMemberUnsubscribe?: boolean;
}

export const LIST_NOT_FOUND = notFound("List not found");
