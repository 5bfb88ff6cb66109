import type { Route } from "../route.js";

/** Bulk tags and subscriber operations. */
export const subscriberOperationsRoutes: readonly Route[] = [];
