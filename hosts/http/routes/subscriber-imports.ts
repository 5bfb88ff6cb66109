import type { Route } from "../route.js";

/** Subscriber imports. */
export const subscriberImportsRoutes: readonly Route[] = [];
