import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { describeBlockType } from "../../../core/emails/block-reference.js";
import { describeBlockTypes } from "../../../core/emails/blocks.js";
import {
  ComponentPath,
  CreateEmailComponentCommand,
  ListEmailComponentsQuery,
  PreviewDefaultComponentCommand,
  SetDefaultComponentCommand,
  SlotPath,
  UpdateEmailComponentCommand,
} from "../../../core/emails/commands.js";
import { CreateEmailComponent } from "../../../core/emails/create-email-component.js";
import { DeleteEmailComponent } from "../../../core/emails/delete-email-component.js";
import { GetDefaultComponent } from "../../../core/emails/get-default-component.js";
import { GetEmailComponent } from "../../../core/emails/get-email-component.js";
import { ListEmailComponents } from "../../../core/emails/list-email-components.js";
import { PreviewDefaultComponent, type DefaultComponentPreview } from "../../../core/emails/preview-default-component.js";
import { SetDefaultComponent, type SetDefaultResult } from "../../../core/emails/set-default-component.js";
import { UpdateEmailComponent, type UpdatedEmailComponent } from "../../../core/emails/update-email-component.js";
import { BlockTypeReferenceView, BlockTypeView, EmailComponentView } from "../../../core/emails/view.js";
import { TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { ok } from "../../../core/shared/result.js";
import { Id, view, viewWithOptional } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

/** Non-fatal notes (an unsubscribe link kept on), sent only when there are some. */
const Warnings = { warnings: t.readonlyArray(t.string) };
const withWarnings = (warnings: readonly string[]) => (warnings.length > 0 ? { warnings } : {});

const BlockTypePath = t.type({ blockType: TrimmedNonEmpty }, "BlockTypePath");

/** Email components (spec, Email components; compat-reference §15) and the block catalog. */
export const emailComponentsRoutes = routeModule(
  {
    listEmailComponents: ListEmailComponents,
    getDefaultComponent: GetDefaultComponent,
    setDefaultComponent: SetDefaultComponent,
    previewDefaultComponent: PreviewDefaultComponent,
    getEmailComponent: GetEmailComponent,
    createEmailComponent: CreateEmailComponent,
    updateEmailComponent: UpdateEmailComponent,
    deleteEmailComponent: DeleteEmailComponent,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/email-blocks",
      tag: "Email components",
      scopes: ["emails:read"],
      summary: "The block types emails and components are made of, with their fields",
      response: view({ blockTypes: t.readonlyArray(BlockTypeView) }),
      handle: async () => ok({ blockTypes: describeBlockTypes() }),
    }),
    defineRoute({
      method: "get",
      path: "/email-blocks/:blockType",
      tag: "Email components",
      scopes: ["emails:read"],
      summary: "One block type's reference: its fields, notes and a minimal valid example. 404 for an unknown type, naming the known ones",
      params: BlockTypePath,
      response: view({ blockType: BlockTypeReferenceView }),
      errors: [404],
      handle: async ({ input }) => under("blockType")(describeBlockType(input.params.blockType)),
    }),
    defineRoute({
      method: "get",
      path: "/email-components",
      tag: "Email components",
      scopes: ["emails:read"],
      summary: "List the company's email components, alphabetical; type (section or footer) and defaultsOnly=true filter",
      query: ListEmailComponentsQuery,
      response: view({ components: t.readonlyArray(EmailComponentView) }),
      errors: [422],
      handle: async ({ input, actor }) => under("components")(await uses.listEmailComponents.execute(actor, input.query)),
    }),
    defineRoute({
      method: "get",
      path: "/email-components/defaults/:slot",
      tag: "Email components",
      scopes: ["emails:read"],
      summary:
        "The default component of a slot (only footer: 400 for another slot); 404 when none is set (emails then get a footer generated from the company profile)",
      params: SlotPath,
      response: view({ component: EmailComponentView }),
      errors: [400, 404],
      handle: async ({ input, actor }) => under("component")(await uses.getDefaultComponent.execute(actor, input.params.slot)),
    }),
    defineRoute({
      method: "put",
      path: "/email-components/defaults/:slot",
      tag: "Email components",
      scopes: ["emails:write"],
      summary:
        "Set the default footer: edits the current one (version goes up when blocks change) or creates one (name defaults to 'Default footer'). Footer blocks keep showUnsubscribe true; every email carries an unsubscribe link anyway.",
      params: SlotPath,
      body: SetDefaultComponentCommand,
      response: viewWithOptional(
        {
          component: EmailComponentView,
          application: view({ slot: t.string, created: t.boolean, appliesTo: t.string, unsubscribeLink: t.string }),
        },
        Warnings,
      ),
      errors: [400, 409, 422],
      handle: async ({ input, actor }) =>
        map(({ component, application, warnings }: SetDefaultResult) => ({ component, application, ...withWarnings(warnings) }))(
          await uses.setDefaultComponent.execute(actor, input.params.slot, input.body),
        ),
    }),
    defineRoute({
      method: "post",
      path: "/email-components/defaults/:slot/preview",
      tag: "Email components",
      scopes: ["emails:read", "templates:read"],
      summary:
        "Preview a default footer without saving it: the PUT body (blocks; name and description are accepted and change nothing shown) plus templateId " +
        "(show it under that template; default: a sample email), subscriberId or subscriber, and variables for the merge tags. Rendered with the company's theme, " +
        "no tracking; the unsubscribe link points at a preview placeholder. footer holds the blocks as PUT would save them. 400 unsupported slot or no blocks; 404 template or subscriber not found",
      params: SlotPath,
      body: PreviewDefaultComponentCommand,
      response: viewWithOptional(
        {
          html: t.string,
          text: t.string,
          subject: t.string,
          previewText: t.union([t.string, t.null]),
          footer: view({ slot: t.string, blocks: t.readonlyArray(t.UnknownRecord) }),
          template: t.union([view({ id: Id, name: t.string }), t.null]),
          personalized: t.boolean,
          trackingApplied: t.boolean,
          unresolvedMergeTags: t.readonlyArray(view({ tag: t.string, reason: t.string })),
        },
        Warnings,
      ),
      errors: [400, 404, 422],
      handle: async ({ input, actor }) =>
        map(({ warnings, ...preview }: DefaultComponentPreview) => ({ ...preview, ...withWarnings(warnings) }))(
          await uses.previewDefaultComponent.execute(actor, input.params.slot, input.body),
        ),
    }),
    defineRoute({
      method: "get",
      path: "/email-components/:componentId",
      tag: "Email components",
      scopes: ["emails:read"],
      summary: "One email component; 404 'Email component not found'",
      params: ComponentPath,
      response: view({ component: EmailComponentView }),
      errors: [404],
      handle: async ({ input, actor }) => under("component")(await uses.getEmailComponent.execute(actor, input.params.componentId)),
    }),
    defineRoute({
      method: "post",
      path: "/email-components",
      tag: "Email components",
      scopes: ["emails:write"],
      summary: "Create an email component: name (unique, 409), blocks (at least one), description, componentType (section by default or footer)",
      body: CreateEmailComponentCommand,
      response: view({ component: EmailComponentView }),
      errors: [400, 409, 422],
      handle: async ({ input, actor }) => under("component")(await uses.createEmailComponent.execute(actor, input.body)),
    }),
    defineRoute({
      method: "patch",
      path: "/email-components/:componentId",
      tag: "Email components",
      scopes: ["emails:write"],
      summary:
        "Change an email component: name (unique in company, 409 duplicate name), description (empty string clears), blocks (replaces all, at least one; the version goes up when they change), componentType (section or footer). Omitted fields are kept; 400 'No supported fields provided'. The default footer keeps its unsubscribe link enabled. Emails that copied the component keep their copy.",
      params: ComponentPath,
      body: UpdateEmailComponentCommand,
      response: viewWithOptional({ component: EmailComponentView }, Warnings),
      errors: [400, 404, 409, 422],
      handle: async ({ input, actor }) =>
        map(({ component, warnings }: UpdatedEmailComponent) => ({ component, ...withWarnings(warnings) }))(
          await uses.updateEmailComponent.execute(actor, input.params.componentId, input.body),
        ),
    }),
    defineRoute({
      method: "delete",
      path: "/email-components/:componentId",
      tag: "Email components",
      scopes: ["emails:write"],
      summary:
        "Delete an email component (emails that copied it keep their copy; without a default footer emails get the generated one); 404 'Email component not found'",
      params: ComponentPath,
      response: view({ id: Id }),
      errors: [404],
      handle: async ({ input, actor }) => uses.deleteEmailComponent.execute(actor, input.params.componentId),
    }),
  ],
);
