import type { Route } from "../route.js";
import { accountRoutes } from "./account.js";
import { apiKeyRoutes } from "./api-keys.js";

/**
 * Every API route, in mounting order (fixed paths such as /subscribers/me come before
 * parameterised ones such as /subscribers/:email).
 */
export const apiRoutes: readonly Route[] = [...accountRoutes, ...apiKeyRoutes];
