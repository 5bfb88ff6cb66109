import type { Route } from "../route.js";

/** Accounts. */
export const accountsRoutes: readonly Route[] = [];
