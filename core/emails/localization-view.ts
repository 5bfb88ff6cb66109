import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, Timestamp, view } from "../shared/view-fields.js";
import { LOCALIZATION_SOURCES, syncStatusOf, type TemplateLocalization } from "./localization.js";
import { isBlocksBody, type Template } from "./model.js";
import { EmailBlocksView, TemplateView, toTemplateView } from "./view.js";

/** A localized variant as the API shows it, with whether it still matches the default content. */
export const LocalizationView = view(
  {
    id: Id,
    templateId: Id,
    locale: t.string,
    subject: t.string,
    previewText: NullableString,
    html: NullableString,
    blocks: t.union([EmailBlocksView, t.null]),
    source: oneOf(LOCALIZATION_SOURCES, "LocalizationSource"),
    /** `synced` while the default content is the one it was written from; `outdated` once that changed. */
    syncStatus: oneOf(["synced", "outdated"], "SyncStatus"),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "TemplateLocalization",
);
export type LocalizationView = t.TypeOf<typeof LocalizationView>;

export const toLocalizationView = (localization: TemplateLocalization, template: Template): LocalizationView => ({
  id: localization.id,
  templateId: localization.templateId,
  locale: localization.locale,
  subject: localization.subject,
  previewText: localization.previewText,
  html: isBlocksBody(localization.body) ? null : localization.body.html,
  blocks: isBlocksBody(localization.body) ? localization.body.blocks : null,
  source: localization.source,
  syncStatus: syncStatusOf(localization, template),
  createdAt: localization.createdAt.toISOString(),
  updatedAt: localization.updatedAt.toISOString(),
});

/** GET /templates/{templateId}: the template, its public share link (null when none) and its localized variants. */
export const TemplateDetailView = view(
  { ...TemplateView.type.props, shareUrl: NullableString, localizations: t.readonlyArray(LocalizationView) },
  "TemplateDetail",
);
export type TemplateDetailView = t.TypeOf<typeof TemplateDetailView>;

export const toTemplateDetailView = (template: Template, shareUrl: string | null, localizations: readonly TemplateLocalization[]): TemplateDetailView => ({
  ...toTemplateView(template),
  shareUrl,
  localizations: localizations.map((localization) => toLocalizationView(localization, template)),
});
