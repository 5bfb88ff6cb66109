import * as t from "io-ts";
import {
  CreateTemplateCommand,
  ListTemplatesQuery,
  LocalizationPath,
  RenderPreviewCommand,
  SetTemplateLocalizationCommand,
  SyncTemplateLocalizationsCommand,
  TemplatePath,
  UpdateTemplateCommand,
} from "../../../core/emails/commands.js";
import { CreateTemplate } from "../../../core/emails/create-template.js";
import { DeleteTemplate } from "../../../core/emails/delete-template.js";
import { GetTemplate } from "../../../core/emails/get-template.js";
import { ListTemplates } from "../../../core/emails/list-templates.js";
import { LocalizationView, TemplateDetailView } from "../../../core/emails/localization-view.js";
import { SetTemplateLocalization } from "../../../core/emails/set-template-localization.js";
import { ShareTemplate } from "../../../core/emails/share-template.js";
import { SyncTemplateLocalizations } from "../../../core/emails/sync-template-localizations.js";
import { UnshareTemplate } from "../../../core/emails/unshare-template.js";
import { PreviewTemplate } from "../../../core/emails/preview-template.js";
import { UpdateTemplate } from "../../../core/emails/update-template.js";
import { TemplateView } from "../../../core/emails/view.js";
import { OffsetPaginationView } from "../../../core/shared/offset-pagination.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";
import { renderPreviewView } from "../../../core/emails/render-preview-view.js";

const REFERENCE = "{templateId} is a template ID, or a transactional email's ID or slug (its content)";

const CONTENT_RULES =
  "Exactly one of html (raw HTML) and blocks (see GET /email-blocks) holds the body (400 'Provide exactly one of html or blocks'; blocks need at least one block); merge tags use Liquid ({{ firstName }}). prompt (AI generation) is not available: 400.";

/** Templates: reusable email content (compat-reference §12). */
export const templatesRoutes = routeModule(
  {
    listTemplates: ListTemplates,
    getTemplate: GetTemplate,
    createTemplate: CreateTemplate,
    updateTemplate: UpdateTemplate,
    deleteTemplate: DeleteTemplate,
    previewTemplate: PreviewTemplate,
    shareTemplate: ShareTemplate,
    unshareTemplate: UnshareTemplate,
    setTemplateLocalization: SetTemplateLocalization,
    syncTemplateLocalizations: SyncTemplateLocalizations,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/templates",
      tag: "Templates",
      scopes: ["templates:read"],
      summary: "List templates, newest first, optionally only those with a label; limit 1-100 (default 50) and offset",
      query: ListTemplatesQuery,
      response: view({ templates: t.readonlyArray(TemplateView), pagination: OffsetPaginationView }),
      errors: [422],
      handle: async ({ input, actor }) => uses.listTemplates.execute(actor, input.query),
    }),
    defineRoute({
      method: "get",
      path: "/templates/:templateId",
      tag: "Templates",
      scopes: ["templates:read"],
      summary:
        "One template with its content, its public share link (shareUrl, null when none) and its localized variants (each with syncStatus: synced, or outdated once the default content changed); 404 'Template not found'",
      params: TemplatePath,
      response: view({ template: TemplateDetailView }),
      errors: [404],
      handle: async ({ input, actor }) => under("template")(await uses.getTemplate.execute(actor, input.params.templateId)),
    }),
    defineRoute({
      method: "post",
      path: "/templates",
      tag: "Templates",
      scopes: ["templates:write"],
      summary: `Create a template: name and subject required, previewText (string or null), labels. ${CONTENT_RULES}`,
      body: CreateTemplateCommand,
      response: view({ template: TemplateView }),
      errors: [400, 422],
      handle: async ({ input, actor }) => under("template")(await uses.createTemplate.execute(actor, input.body)),
    }),
    defineRoute({
      method: "put",
      path: "/templates/:templateId",
      tag: "Templates",
      scopes: ["templates:write"],
      summary: `Change a template: at least one of name, subject, previewText (null clears), html or blocks (replaces the body), labels (400 'No supported fields provided'). ${CONTENT_RULES}`,
      params: TemplatePath,
      body: UpdateTemplateCommand,
      response: view({ template: TemplateView }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => under("template")(await uses.updateTemplate.execute(actor, input.params.templateId, input.body)),
    }),
    defineRoute({
      method: "delete",
      path: "/templates/:templateId",
      tag: "Templates",
      scopes: ["templates:write"],
      summary: "Delete a template. Saved transactional emails that use it keep their content; 404 'Template not found'",
      params: TemplatePath,
      response: view({ templateId: Id }),
      errors: [404],
      handle: async ({ input, actor }) => uses.deleteTemplate.execute(actor, input.params.templateId),
    }),
    defineRoute({
      method: "post",
      path: "/templates/:templateId/render",
      tag: "Templates",
      scopes: ["templates:read"],
      summary:
        "Preview a template as a contact would receive it (theme, default footer, merge tags), without tracking: subscriberId (a stored contact, 404 'Subscriber not found') or subscriber (inline: email, firstName, lastName, customAttributes), plus variables. locale (es, pt-BR, or default) picks the localized variant of that locale, else of its language, else the default content; the answer's locale names the one used (default for the template's own). unresolvedMergeTags lists the merge tags left empty (reason unknown or no_value).",
      params: TemplatePath,
      body: RenderPreviewCommand,
      response: renderPreviewView("template"),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.previewTemplate.execute(actor, input.params.templateId, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/templates/:templateId/share-link",
      tag: "Templates",
      scopes: ["templates:write"],
      summary:
        `Create (or get) the template's public view-in-browser link: anyone with shareUrl sees it rendered for a sample contact, with an inert unsubscribe link and no tracking. ` +
        `Idempotent: while a link is live the same URL comes back with created false. ${REFERENCE}; 404 'Template not found'`,
      params: TemplatePath,
      response: view({ templateId: Id, shareUrl: t.string, shareToken: t.string, created: t.boolean }),
      errors: [404],
      handle: async ({ input, actor }) => uses.shareTemplate.execute(actor, input.params.templateId),
    }),
    defineRoute({
      method: "delete",
      path: "/templates/:templateId/share-link",
      tag: "Templates",
      scopes: ["templates:write"],
      summary: `Revoke the public link: its URL is not found from now on, and sharing again mints a different one. revoked is false when no link was live. ${REFERENCE}; 404 'Template not found'`,
      params: TemplatePath,
      response: view({ templateId: Id, revoked: t.boolean }),
      errors: [404],
      handle: async ({ input, actor }) => uses.unshareTemplate.execute(actor, input.params.templateId),
    }),
    defineRoute({
      method: "put",
      path: "/templates/:templateId/localizations/:locale",
      tag: "Templates",
      scopes: ["templates:write"],
      summary:
        "Create or replace the template's variant for a locale (a BCP 47 tag such as es or pt-BR, normalised; 422 otherwise): subject required, previewText, and exactly one of html and blocks. " +
        `A render with that locale (or a more specific one of the same language) uses it. ${REFERENCE}; 404 'Template not found'`,
      params: LocalizationPath,
      body: SetTemplateLocalizationCommand,
      response: view({ templateId: Id, localization: LocalizationView }),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.setTemplateLocalization.execute(actor, input.params.templateId, input.params.locale, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/templates/:templateId/localizations/sync",
      tag: "Templates",
      scopes: ["templates:write"],
      summary:
        "Queue machine translation of the template's default content: into each of locales (1-50 BCP 47 tags; each variant created or replaced), or, with no locales ({}), " +
        "into every locale whose variant is outdated. The worker writes each as a variant with source translated; merge tags are kept as written. " +
        `Needs a LibreTranslate-compatible service (TRANSLATION_URL): without one, 400 code translation_not_configured. ${REFERENCE}; 404 'Template not found'`,
      params: TemplatePath,
      body: SyncTemplateLocalizationsCommand,
      response: view({ templateId: Id, queuedLocales: t.readonlyArray(t.string), queuedVariantCount: t.number }),
      successStatus: 202,
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.syncTemplateLocalizations.execute(actor, input.params.templateId, input.body),
    }),
  ],
);
