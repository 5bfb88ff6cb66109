import * as t from "io-ts";
import { Id, NullableString, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import { embedSnippets } from "./embed-snippets.js";
import { blocksOf, type SavedForm } from "./model.js";
import { formActionUrl, formScriptUrl } from "./urls.js";

const FormBlockView = viewWithOptional({ type: t.string, text: t.string }, { placeholder: t.string, required: t.boolean }, "FormBlockView");

const FormThemeView = view(
  {
    accentColor: t.string,
    backgroundColor: t.string,
    textColor: t.string,
    mutedTextColor: t.string,
    cardColor: t.string,
    borderColor: t.string,
    borderRadius: t.number,
    headingFontFamily: t.string,
    bodyFontFamily: t.string,
    density: t.string,
  },
  "FormTheme",
);

/** The form record of the list, PATCH and embed answers (compat-reference §18: settings, blocks, actionUrl). */
export const FormView = view(
  {
    id: Id,
    name: t.string,
    status: t.string,
    actionUrl: t.string,
    listIds: t.readonlyArray(t.string),
    tagIds: t.readonlyArray(t.string),
    duplicateStrategy: t.string,
    successMessage: t.string,
    redirectUrl: NullableString,
    headline: NullableString,
    description: NullableString,
    buttonText: t.string,
    showFirstName: t.boolean,
    showLastName: t.boolean,
    theme: FormThemeView,
    blocks: t.readonlyArray(FormBlockView),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "Form",
);
export type FormView = t.TypeOf<typeof FormView>;

/** The spec's answer to POST /forms: the lists, tags, duplicate behaviour and success action stay server-side. */
export const CreatedFormView = view({ id: Id, name: t.string, status: t.string, actionUrl: t.string }, "CreatedForm");
export const EmbedView = view({ actionUrl: t.string, scriptUrl: t.string }, "FormEmbed");
export const EmbedWithSnippetsView = view(
  { actionUrl: t.string, scriptUrl: t.string, snippets: view({ script: t.string, html: t.string }, "FormEmbedSnippets") },
  "FormEmbedWithSnippets",
);

export const toFormView = (form: SavedForm, baseUrl: string): FormView => ({
  id: form.id,
  name: form.name,
  status: form.status,
  actionUrl: formActionUrl(baseUrl, form.id),
  listIds: form.listIds,
  tagIds: form.tagIds,
  duplicateStrategy: form.duplicateStrategy,
  successMessage: form.successMessage,
  redirectUrl: form.redirectUrl,
  headline: form.headline,
  description: form.description,
  buttonText: form.buttonText,
  showFirstName: form.showFirstName,
  showLastName: form.showLastName,
  theme: form.theme,
  blocks: blocksOf(form),
  createdAt: form.createdAt.toISOString(),
  updatedAt: form.updatedAt.toISOString(),
});

export const toEmbedView = (form: SavedForm, baseUrl: string) => ({ actionUrl: formActionUrl(baseUrl, form.id), scriptUrl: formScriptUrl(baseUrl, form.id) });

export const toEmbedWithSnippets = (form: SavedForm, baseUrl: string) => ({ ...toEmbedView(form, baseUrl), snippets: embedSnippets(form, baseUrl) });
