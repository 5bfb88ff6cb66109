import * as t from "io-ts";
import { CreateFormCommand, FormPath, UpdateFormCommand } from "../../../core/forms/commands.js";
import { CreateForm } from "../../../core/forms/create-form.js";
import { GetFormEmbed } from "../../../core/forms/get-form-embed.js";
import { ListForms } from "../../../core/forms/list-forms.js";
import { UpdateForm } from "../../../core/forms/update-form.js";
import { CreatedFormView, EmbedView, EmbedWithSnippetsView, FormView } from "../../../core/forms/view.js";
import { view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

/** Signup forms (spec, Forms; compat-reference §18). Visitors submit them at their actionUrl, without a key (hosts/http/public/forms.ts). */
export const formsRoutes = routeModule({ listForms: ListForms, createForm: CreateForm, updateForm: UpdateForm, getFormEmbed: GetFormEmbed }, (uses) => [
  defineRoute({
    method: "get",
    path: "/forms",
    tag: "Forms",
    scopes: ["widgets:read"],
    summary: "List the company's forms, newest first, with their settings, blocks and actionUrl",
    response: view({ forms: t.readonlyArray(FormView) }),
    handle: async ({ actor }) => under("forms")(await uses.listForms.execute(actor)),
  }),
  defineRoute({
    method: "post",
    path: "/forms",
    tag: "Forms",
    scopes: ["widgets:write"],
    summary:
      "Create a signup form, published at once. listIds (required) must be the company's lists and tagIds existing tags (400 otherwise); duplicateStrategy skip (default), merge or overwrite; successMessage is shown when there is no redirectUrl (HTTP or HTTPS). Visitors post email, firstName and lastName to actionUrl; scriptUrl renders the form in a page.",
    body: CreateFormCommand,
    response: view({ form: CreatedFormView, embed: EmbedView }),
    errors: [400, 403, 422],
    handle: async ({ input, actor }) => uses.createForm.execute(actor, input.body),
  }),
  defineRoute({
    method: "patch",
    path: "/forms/:formId",
    tag: "Forms",
    scopes: ["widgets:write"],
    summary:
      "Change any of a form's settings: tagIds [] clears the tags, redirectUrl '' goes back to the success message, theme is merged, blocks replaces the layout (exactly one email field and one submit button). 404 'Form not found'",
    params: FormPath,
    body: UpdateFormCommand,
    response: view({ form: FormView, embed: EmbedView }),
    errors: [400, 403, 404, 422],
    handle: async ({ input, actor }) => uses.updateForm.execute(actor, input.params.formId, input.body),
  }),
  defineRoute({
    method: "get",
    path: "/forms/embed/:formId",
    tag: "Forms",
    scopes: ["widgets:read"],
    summary:
      "A form with what to paste into a site: the script tag (renders the themed form, submits without leaving the page) or a plain HTML form. 404 'Form not found'",
    params: FormPath,
    response: view({ form: FormView, embed: EmbedWithSnippetsView }),
    errors: [404],
    handle: async ({ input, actor }) => uses.getFormEmbed.execute(actor, input.params.formId),
  }),
]);
