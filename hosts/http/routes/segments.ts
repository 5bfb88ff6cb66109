import type { Route } from "../route.js";

/** Segments. */
export const segmentsRoutes: readonly Route[] = [];
