import type { ListWithCounts } from "./model.js";

/** The list record of the API (compat-reference §8). */
export interface ListView {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly isPrivate: boolean;
  readonly allowMemberUnsubscribe: boolean;
  readonly subscriberCount: number;
  readonly activeSubscriberCount: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

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
