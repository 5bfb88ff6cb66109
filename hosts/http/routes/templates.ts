import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { EmailBlockCodec } from "../../../core/emails/blocks.js";
import { CreateTemplateCommand, ListTemplatesQuery, RenderPreviewCommand, TemplatePath, UpdateTemplateCommand } from "../../../core/emails/commands.js";
import { CreateTemplate } from "../../../core/emails/create-template.js";
import { DeleteTemplate } from "../../../core/emails/delete-template.js";
import { GetTemplate } from "../../../core/emails/get-template.js";
import { ListTemplates } from "../../../core/emails/list-templates.js";
import { PreviewTemplate } from "../../../core/emails/preview-template.js";
import { UpdateTemplate } from "../../../core/emails/update-template.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, Timestamp } from "../../../core/shared/view-fields.js";

const TemplateResource = t.type({
  id: Id,
  name: t.string,
  subject: t.string,
  previewText: NullableString,
  html: NullableString,
  blocks: t.union([t.array(EmailBlockCodec), t.null]),
  labels: t.array(t.string),
  emailPreset: t.null,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const Pagination = t.type({ limit: t.number, offset: t.number, count: t.number, total: t.number, hasMore: t.boolean });

const CONTENT_RULES =
  "Exactly one of html (raw HTML) and blocks (see GET /email-blocks) holds the body (400 'Provide exactly one of html or blocks'; blocks need at least one block); merge tags use Liquid ({{ firstName }}). prompt (AI generation) is not available: 400.";

/** Templates: reusable email content (compat-reference §12). */
export const templatesRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "get",
    path: "/templates",
    tag: "Templates",
    scopes: ["templates:read"],
    summary: "List templates, newest first, optionally only those with a label; limit 1-100 (default 50) and offset",
    query: ListTemplatesQuery,
    response: t.type({ templates: t.array(TemplateResource), pagination: Pagination }),
    errors: [422],
    handle: async ({ input, actor, container }) => container.get(ListTemplates).execute(actor, input.query),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/templates/:templateId",
    tag: "Templates",
    scopes: ["templates:read"],
    summary: "One template with its content; 404 'Template not found'",
    params: TemplatePath,
    response: t.type({ template: TemplateResource }),
    errors: [404],
    handle: async ({ input, actor, container }) => map((template) => ({ template }))(await container.get(GetTemplate).execute(actor, input.params.templateId)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/templates",
    tag: "Templates",
    scopes: ["templates:write"],
    summary: `Create a template: name and subject required, previewText (string or null), labels. ${CONTENT_RULES}`,
    body: CreateTemplateCommand,
    response: t.type({ template: TemplateResource }),
    errors: [400, 422],
    handle: async ({ input, actor, container }) => map((template) => ({ template }))(await container.get(CreateTemplate).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "put",
    path: "/templates/:templateId",
    tag: "Templates",
    scopes: ["templates:write"],
    summary: `Change a template: at least one of name, subject, previewText (null clears), html or blocks (replaces the body), labels (400 'No supported fields provided'). ${CONTENT_RULES}`,
    params: TemplatePath,
    body: UpdateTemplateCommand,
    response: t.type({ template: TemplateResource }),
    errors: [400, 404, 422],
    handle: async ({ input, actor, container }) =>
      map((template) => ({ template }))(await container.get(UpdateTemplate).execute(actor, input.params.templateId, input.body)),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/templates/:templateId",
    tag: "Templates",
    scopes: ["templates:write"],
    summary: "Delete a template. Saved transactional emails that use it keep their content; 404 'Template not found'",
    params: TemplatePath,
    response: t.type({ templateId: Id }),
    errors: [404],
    handle: async ({ input, actor, container }) => container.get(DeleteTemplate).execute(actor, input.params.templateId),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/templates/:templateId/render",
    tag: "Templates",
    scopes: ["templates:read"],
    summary:
      "Preview a template as a contact would receive it (theme, default footer, merge tags), without tracking: subscriberId (a stored contact, 404 'Subscriber not found') or subscriber (inline: email, firstName, lastName, customAttributes), plus variables. unresolvedMergeTags lists the merge tags left empty (reason unknown or no_value).",
    params: TemplatePath,
    body: RenderPreviewCommand,
    response: t.type({
      html: t.string,
      text: t.string,
      subject: t.string,
      previewText: NullableString,
      locale: t.string,
      personalized: t.boolean,
      trackingApplied: t.boolean,
      unresolvedMergeTags: t.array(t.type({ tag: t.string, reason: t.keyof({ unknown: null, no_value: null }) })),
      unevaluatedConditions: t.array(t.unknown),
      entity: t.type({ type: t.literal("template"), id: Id, variantId: t.null }),
    }),
    errors: [400, 404, 422],
    handle: async ({ input, actor, container }) =>
      map((preview: object) => ({ ...preview }))(await container.get(PreviewTemplate).execute(actor, input.params.templateId, input.body)),
  }),
];
