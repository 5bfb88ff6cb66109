import type { Route } from "../route.js";

/** Tags. */
export const tagsRoutes: readonly Route[] = [];
