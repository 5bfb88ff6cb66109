import type { Route } from "../route.js";

/** Custom events. */
export const customEventsRoutes: readonly Route[] = [];
