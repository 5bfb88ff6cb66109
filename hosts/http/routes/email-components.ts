import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { describeBlockTypes, EmailBlockCodec } from "../../../core/emails/blocks.js";
import { ComponentPath, CreateEmailComponentCommand, ListEmailComponentsQuery, SetDefaultComponentCommand, SlotPath, UpdateEmailComponentCommand } from "../../../core/emails/commands.js";
import { CreateEmailComponent } from "../../../core/emails/create-email-component.js";
import { DeleteEmailComponent } from "../../../core/emails/delete-email-component.js";
import { GetDefaultComponent } from "../../../core/emails/get-default-component.js";
import { GetEmailComponent } from "../../../core/emails/get-email-component.js";
import { ListEmailComponents } from "../../../core/emails/list-email-components.js";
import { SetDefaultComponent } from "../../../core/emails/set-default-component.js";
import { UpdateEmailComponent } from "../../../core/emails/update-email-component.js";
import { ok } from "../../../core/shared/result.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, Timestamp } from "../../../core/shared/view-fields.js";

const ComponentResource = t.type({
  id: Id,
  companyId: Id,
  name: t.string,
  description: NullableString,
  blocks: t.array(EmailBlockCodec),
  componentType: t.keyof({ section: null, footer: null }),
  defaultSlot: NullableString,
  version: t.number,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const Warnings = t.partial({ warnings: t.array(t.string) });
const withWarnings = (warnings: readonly string[]) => (warnings.length > 0 ? { warnings } : {});

const BlockField: t.Mixed = t.intersection([
  t.type({ name: t.string, required: t.boolean, type: t.string }),
  t.partial({ values: t.array(t.unknown), itemFields: t.array(t.type({ name: t.string, required: t.boolean, type: t.string })) }),
]);

/** Email components (spec, Email components; compat-reference §15) and the block catalog. */
export const emailComponentsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "get",
    path: "/email-blocks",
    tag: "Email components",
    scopes: ["emails:read"],
    summary: "The block types emails and components are made of, with their fields",
    response: t.type({
      blockTypes: t.array(t.type({ type: t.string, creatable: t.boolean, required: t.array(t.string), optional: t.array(t.string), fields: t.array(BlockField), notes: t.string })),
    }),
    handle: async () => ok({ blockTypes: describeBlockTypes() }),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/email-components",
    tag: "Email components",
    scopes: ["emails:read"],
    summary: "List the company's email components, alphabetical; type (section or footer) and defaultsOnly=true filter",
    query: ListEmailComponentsQuery,
    response: t.type({ components: t.array(ComponentResource) }),
    errors: [422],
    handle: async ({ input, actor, container }) => map((components) => ({ components }))(await container.get(ListEmailComponents).execute(actor, input.query)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/email-components/defaults/:slot",
    tag: "Email components",
    scopes: ["emails:read"],
    summary: "The default component of a slot (only footer: 400 for another slot); 404 when none is set (emails then get a footer generated from the company profile)",
    params: SlotPath,
    response: t.type({ component: ComponentResource }),
    errors: [400, 404],
    handle: async ({ input, actor, container }) => map((component) => ({ component }))(await container.get(GetDefaultComponent).execute(actor, input.params.slot)),
  }),
  defineUncheckedRoute({
    method: "put",
    path: "/email-components/defaults/:slot",
    tag: "Email components",
    scopes: ["emails:write"],
    summary:
      "Set the default footer: edits the current one (version goes up when blocks change) or creates one (name defaults to 'Default footer'). Footer blocks keep showUnsubscribe true; every email carries an unsubscribe link anyway.",
    params: SlotPath,
    body: SetDefaultComponentCommand,
    response: t.intersection([
      t.type({
        component: ComponentResource,
        application: t.type({ slot: t.string, created: t.boolean, appliesTo: t.string, unsubscribeLink: t.string }),
      }),
      Warnings,
    ]),
    errors: [400, 409, 422],
    handle: async ({ input, actor, container }) =>
      map(({ component, application, warnings }: { component: unknown; application: unknown; warnings: readonly string[] }) => ({ component, application, ...withWarnings(warnings) }))(
        await container.get(SetDefaultComponent).execute(actor, input.params.slot, input.body),
      ),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/email-components/:componentId",
    tag: "Email components",
    scopes: ["emails:read"],
    summary: "One email component; 404 'Email component not found'",
    params: ComponentPath,
    response: t.type({ component: ComponentResource }),
    errors: [404],
    handle: async ({ input, actor, container }) => map((component) => ({ component }))(await container.get(GetEmailComponent).execute(actor, input.params.componentId)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/email-components",
    tag: "Email components",
    scopes: ["emails:write"],
    summary: "Create an email component: name (unique, 409), blocks (at least one), description, componentType (section by default or footer)",
    body: CreateEmailComponentCommand,
    response: t.type({ component: ComponentResource }),
    errors: [400, 409, 422],
    handle: async ({ input, actor, container }) => map((component) => ({ component }))(await container.get(CreateEmailComponent).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/email-components/:componentId",
    tag: "Email components",
    scopes: ["emails:write"],
    summary:
      "Change an email component: name (unique in company, 409 duplicate name), description (empty string clears), blocks (replaces all, at least one; the version goes up when they change), componentType (section or footer). Omitted fields are kept; 400 'No supported fields provided'. The default footer keeps its unsubscribe link enabled. Emails that copied the component keep their copy.",
    params: ComponentPath,
    body: UpdateEmailComponentCommand,
    response: t.intersection([t.type({ component: ComponentResource }), Warnings]),
    errors: [400, 404, 409, 422],
    handle: async ({ input, actor, container }) =>
      map(({ component, warnings }: { component: unknown; warnings: readonly string[] }) => ({ component, ...withWarnings(warnings) }))(
        await container.get(UpdateEmailComponent).execute(actor, input.params.componentId, input.body),
      ),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/email-components/:componentId",
    tag: "Email components",
    scopes: ["emails:write"],
    summary: "Delete an email component (emails that copied it keep their copy; without a default footer emails get the generated one); 404 'Email component not found'",
    params: ComponentPath,
    response: t.type({ id: Id }),
    errors: [404],
    handle: async ({ input, actor, container }) => container.get(DeleteEmailComponent).execute(actor, input.params.componentId),
  }),
];
