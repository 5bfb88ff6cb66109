import * as t from "io-ts";
import { Id, NullableString, Timestamp, view } from "../shared/view-fields.js";
import type { ListWithCounts } from "./model.js";

/** The list record of the API (compat-reference §8). */
export const ListView = view(
  {
    id: Id,
    name: t.string,
    description: NullableString,
    isPrivate: t.boolean,
    allowMemberUnsubscribe: t.boolean,
    subscriberCount: t.number,
    activeSubscriberCount: t.number,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "List",
);
export type ListView = t.TypeOf<typeof ListView>;

export const toListView = (list: ListWithCounts): ListView => ({
  id: list.id,
  name: list.name,
  description: list.description,
  isPrivate: list.isPrivate,
  allowMemberUnsubscribe: list.allowMemberUnsubscribe,
  subscriberCount: list.subscriberCount,
  activeSubscriberCount: list.activeSubscriberCount,
  createdAt: list.createdAt.toISOString(),
  updatedAt: list.updatedAt.toISOString(),
});
