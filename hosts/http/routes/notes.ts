import type { Route } from "../route.js";

/** Subscriber notes. */
export const notesRoutes: readonly Route[] = [];
