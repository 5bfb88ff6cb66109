import type { EventCommand } from "./commands.js";

/**
 * The custom event each command of the tracking script records: `track` records the name it is
 * given (`ecommerce.order_placed` for an order), the others a fixed name, so sequences and
 * segments can wait for a product view or an added item like any other event.
 */
export const WEB_EVENT_NAMES: Readonly<Record<Exclude<EventCommand, "track">, string>> = {
  page: "web.page_viewed",
  viewedProduct: "ecommerce.product_viewed",
  addedToCart: "ecommerce.added_to_cart",
  removedFromCart: "ecommerce.removed_from_cart",
  viewedCart: "ecommerce.cart_viewed",
  viewedCollection: "ecommerce.collection_viewed",
  searched: "ecommerce.searched",
};

/**
 * Names a browser may not record: `subscriber.*` events mean things only the service itself
 * observes (a confirmed double opt-in starts the contact's welcome sequences).
 */
export const isReservedForServer = (name: string): boolean => name.toLowerCase().startsWith("subscriber.");
