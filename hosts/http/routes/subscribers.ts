import type { Route } from "../route.js";

/** Subscribers. */
export const subscribersRoutes: readonly Route[] = [];
