import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { toJsonSchema, withSchema } from "../shared/json-schema.js";
import { Id, NullableString, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import { BLOCK_TYPES, EmailBlockCodec, type BlockField, type EmailBlock } from "./blocks.js";
import { COMPONENT_TYPES, isBlocksBody, type EmailComponent, type Template } from "./model.js";

const blocks = t.readonlyArray(EmailBlockCodec);
/**
 * Stored blocks go out as they were stored (EmailBlocks checked them when they were written):
 * encoding them again could only fail on an older block, never make one safer.
 */
export const EmailBlocksView = withSchema(
  new t.Type<readonly EmailBlock[], readonly EmailBlock[], unknown>("EmailBlocks", blocks.is, blocks.validate, t.identity),
  toJsonSchema(blocks),
);

/** The template record of the API (compat-reference §12). */
export const TemplateView = view(
  {
    id: Id,
    name: t.string,
    subject: t.string,
    previewText: NullableString,
    /** The body: `html` for raw HTML content, `blocks` otherwise; the other one is null. */
    html: NullableString,
    blocks: t.union([EmailBlocksView, t.null]),
    labels: t.readonlyArray(t.string),
    /** The product's presets are not offered here: always null. */
    emailPreset: t.null,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "Template",
);
export type TemplateView = t.TypeOf<typeof TemplateView>;

export const toTemplateView = (template: Template): TemplateView => ({
  id: template.id,
  name: template.name,
  subject: template.subject,
  previewText: template.previewText,
  html: isBlocksBody(template.body) ? null : template.body.html,
  blocks: isBlocksBody(template.body) ? template.body.blocks : null,
  labels: template.labels,
  emailPreset: null,
  createdAt: template.createdAt.toISOString(),
  updatedAt: template.updatedAt.toISOString(),
});

/** The email component record (spec, Email component). */
export const EmailComponentView = view(
  {
    id: Id,
    companyId: Id,
    name: t.string,
    description: NullableString,
    blocks: EmailBlocksView,
    componentType: oneOf(COMPONENT_TYPES, "ComponentType"),
    defaultSlot: NullableString,
    version: t.number,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "EmailComponent",
);
export type EmailComponentView = t.TypeOf<typeof EmailComponentView>;

export const toEmailComponentView = (component: EmailComponent): EmailComponentView => ({
  id: component.id,
  companyId: component.companyId,
  name: component.name,
  description: component.description,
  blocks: component.blocks,
  componentType: component.componentType,
  defaultSlot: component.defaultSlot,
  version: component.version,
  createdAt: component.createdAt.toISOString(),
  updatedAt: component.updatedAt.toISOString(),
});

/** A field of a block type; a list's or a column's items have fields of their own. */
const BlockFieldView: t.Type<BlockField> = withSchema(
  t.recursion("BlockField", () =>
    viewWithOptional(
      { name: t.string, required: t.boolean, type: t.string },
      { values: t.readonlyArray(t.unknown), itemFields: t.readonlyArray(BlockFieldView) },
    ),
  ),
  {
    type: "object",
    required: ["name", "required", "type"],
    properties: {
      name: { type: "string" },
      required: { type: "boolean" },
      type: { type: "string" },
      values: { type: "array" },
      itemFields: { type: "array", items: { type: "object" } },
    },
  },
);

/** A block type of the catalog (GET /email-blocks), read from the block codecs. */
export const BlockTypeView = view(
  {
    type: oneOf(BLOCK_TYPES, "BlockType"),
    creatable: t.boolean,
    required: t.readonlyArray(t.string),
    optional: t.readonlyArray(t.string),
    fields: t.readonlyArray(BlockFieldView),
    notes: t.string,
  },
  "BlockTypeDescription",
);
export type BlockTypeView = t.TypeOf<typeof BlockTypeView>;

/** One block type's full reference: its description plus a minimal valid example. */
export const BlockTypeReferenceView = view({ ...BlockTypeView.type.props, example: t.UnknownRecord }, "BlockTypeReference");
