import type { Route } from "../route.js";

/** Lists. */
export const listsRoutes: readonly Route[] = [];
