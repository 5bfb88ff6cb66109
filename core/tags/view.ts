import type { TaggedSubscriber } from "../subscribers/model.js";
import type { TagWithUsage } from "./model.js";

/** The tag record of the API (compat-reference §7); the usage count is `subscriberCount`. */
export interface TagView {
  readonly id: string;
  readonly name: string;
  readonly color: string;
  readonly isSystem: boolean;
  /** Contacts carrying the tag. */
  readonly subscriberCount: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const toTagView = (tag: TagWithUsage): TagView => ({
  id: tag.id,
  name: tag.name,
  color: tag.color,
  isSystem: tag.isSystem,
  subscriberCount: tag.subscriberCount,
  createdAt: tag.createdAt.toISOString(),
  updatedAt: tag.updatedAt.toISOString(),
});

/** The contact as the single-contact tag routes show it (compat-reference §4.1). */
export interface ContactTagsView {
  readonly id: string;
  readonly email: string;
  readonly externalId: string | null;
  readonly tags: readonly string[];
  /** True when this call created the contact. */
  readonly created: boolean;
}

export const toContactTagsView = (subscriber: TaggedSubscriber, created: boolean): ContactTagsView => ({
  id: subscriber.id,
  email: subscriber.email,
  externalId: subscriber.externalId,
  tags: subscriber.tags,
  created,
});
