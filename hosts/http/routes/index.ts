import type { Route } from "../route.js";
import { accountRoutes } from "./account.js";
import { apiKeyRoutes } from "./api-keys.js";
import { subscriberImportsRoutes } from "./subscriber-imports.js";
import { subscriberOperationsRoutes } from "./subscriber-operations.js";
import { customEventsRoutes } from "./custom-events.js";
import { notesRoutes } from "./notes.js";
import { tagsRoutes } from "./tags.js";
import { listsRoutes } from "./lists.js";
import { segmentsRoutes } from "./segments.js";
import { accountsRoutes } from "./accounts.js";
import { subscribersRoutes } from "./subscribers.js";

/**
 * Every API route, in mounting order: fixed paths such as /subscribers/me, /subscribers/events
 * or /subscribers/notes/:noteId come before parameterised ones such as /subscribers/:email, so
 * subscriberRoutes stay last.
 */
export const apiRoutes: readonly Route[] = [
  ...accountRoutes,
  ...apiKeyRoutes,
  ...subscriberImportsRoutes,
  ...subscriberOperationsRoutes,
  ...customEventsRoutes,
  ...notesRoutes,
  ...tagsRoutes,
  ...listsRoutes,
  ...segmentsRoutes,
  ...accountsRoutes,
  ...subscribersRoutes,
];
