import * as t from "io-ts";
import { Id, NullableString, Timestamp, view } from "../shared/view-fields.js";
import type { TaggedSubscriber } from "../subscribers/model.js";
import type { TagWithUsage } from "./model.js";

/** The tag record of the API (compat-reference §7); the usage count is `subscriberCount`. */
export const TagView = view(
  {
    id: Id,
    name: t.string,
    color: t.string,
    isSystem: t.boolean,
    /** Contacts carrying the tag. */
    subscriberCount: t.number,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "Tag",
);
export type TagView = t.TypeOf<typeof TagView>;

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
export const ContactTagsView = view(
  {
    id: Id,
    email: t.string,
    externalId: NullableString,
    tags: t.readonlyArray(t.string),
    /** True when this call created the contact. */
    created: t.boolean,
  },
  "TaggedContact",
);
export type ContactTagsView = t.TypeOf<typeof ContactTagsView>;

export const toContactTagsView = (subscriber: TaggedSubscriber, created: boolean): ContactTagsView => ({
  id: subscriber.id,
  email: subscriber.email,
  externalId: subscriber.externalId,
  tags: subscriber.tags,
  created,
});
