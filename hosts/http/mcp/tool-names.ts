import type { Route } from "../route.js";

/**
 * The official MCP client's tool names for the operations it shares with this API
 * (`@sequenzy/mcp`, client-calls.md), by `METHOD /path` in the registry's syntax. Agents and
 * prompts written for that client find the same names here. Where the client gives one name to
 * two operations (render_email renders templates and campaigns), the first keeps it.
 */
export const OFFICIAL_TOOL_NAMES: Readonly<Record<string, string>> = {
  "GET /account": "get_account",
  "GET /api-keys": "list_api_keys",
  "GET /sender-profiles": "list_sender_profiles",
  "POST /tags": "create_tag",
  "GET /tags": "list_tags",
  "PATCH /tags/:tagId": "update_tag",
  "DELETE /tags/:tagId": "delete_tag",
  "POST /lists": "create_list",
  "GET /lists": "list_lists",
  "DELETE /lists/:listId": "delete_list",
  "POST /lists/:listId/subscribers": "add_subscribers_to_list",
  "POST /lists/:listId/subscribers/remove": "remove_subscribers_from_list",
  "POST /subscribers": "add_subscriber",
  "GET /subscribers": "search_subscribers",
  "GET /subscribers/:email": "get_subscriber",
  "PATCH /subscribers/:email": "update_subscriber",
  "DELETE /subscribers/:email": "remove_subscriber",
  "POST /subscribers/:email/notes": "add_subscriber_note",
  "GET /subscribers/:email/notes": "list_subscriber_notes",
  "DELETE /subscribers/notes/:noteId": "delete_subscriber_note",
  "POST /subscribers/events": "trigger_subscriber_event",
  "POST /subscribers/events/bulk": "trigger_subscriber_events",
  "POST /subscribers/events/imports": "import_subscriber_events",
  "POST /subscribers/imports": "create_subscriber_import",
  "GET /subscribers/imports/:importId": "get_subscriber_import",
  "POST /subscribers/bulk/tags/add": "bulk_add_subscriber_tags",
  "POST /subscribers/bulk/tags/remove": "bulk_remove_subscriber_tags",
  "POST /segments": "create_segment",
  "GET /segments": "list_segments",
  "GET /segments/:segmentId/count": "get_segment_count",
  "DELETE /segments/:segmentId": "delete_segment",
  "POST /templates": "create_template",
  "GET /templates": "list_templates",
  "GET /templates/:templateId": "get_template",
  "POST /templates/:templateId/render": "render_email",
  "POST /transactional": "create_transactional_email",
  "GET /transactional": "list_transactional_emails",
  "GET /transactional/:idOrSlug": "get_transactional_email",
  "DELETE /transactional/:idOrSlug": "delete_transactional_email",
  "POST /transactional/send": "send_email",
  "GET /metrics/transactional/:idOrSlug": "get_transactional_stats",
  "GET /email-sends": "list_email_sends",
  "GET /email-sends/:emailSendId": "get_email_send",
  "GET /email-components": "list_email_components",
  "PATCH /email-components/:componentId": "update_email_component",
  "GET /email-components/defaults/:slot": "get_default_email_component",
  "PUT /email-components/defaults/:slot": "set_default_email_component",
  "POST /sequences": "create_sequence",
  "GET /sequences": "list_sequences",
  "GET /sequences/:sequenceId": "get_sequence",
  "POST /sequences/:sequenceId/enable": "enable_sequence",
  "POST /sequences/:sequenceId/disable": "disable_sequence",
  "POST /sequences/:sequenceId/enroll": "enroll_subscribers_in_sequence",
  "GET /sequences/:sequenceId/enrollments": "list_sequence_enrollments",
  "POST /campaigns": "create_campaign",
  "GET /campaigns": "list_campaigns",
  "GET /campaigns/:campaignId": "get_campaign",
  "DELETE /campaigns/:campaignId": "delete_campaign",
  "POST /campaigns/:campaignId/test": "send_test_email",
  "POST /campaigns/:campaignId/schedule": "schedule_campaign",
  "POST /campaigns/:campaignId/unschedule": "unschedule_campaign",
  "POST /campaigns/:campaignId/duplicate": "duplicate_campaign",
  "GET /metrics": "get_stats",
  "GET /metrics/campaigns/:campaignId": "get_campaign_stats",
  "POST /forms": "create_form",
  "GET /forms": "list_forms",
  "GET /forms/embed/:formId": "get_form_embed",
  "POST /landing-pages": "create_landing_page",
  "GET /landing-pages/:landingPageId": "get_landing_page",
  "DELETE /landing-pages/:landingPageId": "delete_landing_page",
  "POST /landing-pages/:landingPageId/publish": "publish_landing_page",
  "POST /landing-pages/:landingPageId/unpublish": "unpublish_landing_page",
  "POST /web-tracking-keys": "create_web_tracking_key",
  "GET /web-tracking-keys": "list_web_tracking_keys",
  "POST /webhooks": "create_webhook",
  "GET /webhooks": "list_webhooks",
  "POST /webhooks/:webhookId/test": "test_webhook",
  "DELETE /webhooks/:webhookId": "delete_webhook",
  "GET /team": "list_team_members",
  "POST /team/invitations": "invite_team_member",
  "DELETE /team/invitations/:invitationId": "cancel_team_invitation",
};

/** Longest name every common MCP client accepts (some model APIs allow 64 characters, `[A-Za-z0-9_-]`). */
export const MAX_TOOL_NAME_LENGTH = 64;

const snake = (text: string): string =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .toLowerCase();

export const operationKey = (route: Pick<Route, "method" | "path">): string => `${route.method.toUpperCase()} ${route.path}`;

/**
 * The stable name of an operation the official client does not have: its method and the fixed
 * segments of its path, and the last parameter when the path ends with one
 * (`GET /campaigns/:campaignId/goals` -> `get_campaigns_goals`, `GET /data-exports/:id` -> `get_data_exports_by_id`).
 * `full` names every parameter where it stands, for an operation whose short name another one has.
 */
export function derivedToolName(route: Pick<Route, "method" | "path">, full = false): string {
  const segments = route.path.split("/").filter(Boolean);
  const last = segments.length - 1;
  const parts = segments.flatMap((segment, i) => (!segment.startsWith(":") ? [snake(segment)] : full || i === last ? [`by_${snake(segment.slice(1))}`] : []));
  return [route.method, ...parts].join("_");
}

export const toolNameOf = (route: Pick<Route, "method" | "path">, full = false): string =>
  OFFICIAL_TOOL_NAMES[operationKey(route)] ?? derivedToolName(route, full);
