import * as t from "io-ts";
import { boundedText, oneOf, optional, required } from "../shared/codecs.js";
import { toJsonSchema, withSchema, type JsonSchema } from "../shared/json-schema.js";

/**
 * The email block schema: what a template's or a component's `blocks` may hold. Rich-text
 * fields (`content` of heading, text, list items, html and footer) are HTML written by the
 * company, so they may carry inline markup (`<b>`, `<a href>`, `<br>`); merge-tag values placed
 * in them are HTML-escaped. Plain fields (button `text`, image `alt`) and URL fields (`url`,
 * `src`, `href`) are text: they are escaped as a whole, and a URL that is not http(s), mailto
 * or tel after its merge tags are filled becomes `#`. Unknown fields are dropped.
 */

export const MAX_BLOCKS = 500;
const MAX_CONTENT = 100_000;
const MAX_URL = 2048;

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** `#RGB` or `#RRGGBB`. */
export const HexColor = withSchema(
  new t.Type<string, string, unknown>(
    "HexColor",
    (u): u is string => typeof u === "string" && HEX_COLOR.test(u),
    (u, c) => (typeof u === "string" && HEX_COLOR.test(u.trim()) ? t.success(u.trim()) : t.failure(u, c, "must be a hex color such as #2563EB")),
    t.identity,
  ),
  { type: "string", pattern: HEX_COLOR.source },
);

/** An integer in a range (pixels). */
const intIn = (min: number, max: number) =>
  withSchema(
    new t.Type<number, number, unknown>(
      `Integer(${min}..${max})`,
      (u): u is number => Number.isInteger(u) && (u as number) >= min && (u as number) <= max,
      (u, c) =>
        Number.isInteger(u) && (u as number) >= min && (u as number) <= max
          ? t.success(u as number)
          : t.failure(u, c, `must be an integer from ${min} to ${max}`),
      t.identity,
    ),
    { type: "integer", minimum: min, maximum: max },
  );

/** An array of `min` to `max` items. */
export const arrayOf = <C extends t.Mixed>(item: C, min: number, max: number, noun = "items") => {
  const array = t.array(item);
  return withSchema(
    new t.Type<Array<t.TypeOf<C>>, Array<t.OutputOf<C>>, unknown>(
      `Array<${item.name}>`,
      array.is,
      (u, c) => {
        if (Array.isArray(u) && u.length < min) return t.failure(u, c, `must contain at least ${min} ${noun}`);
        if (Array.isArray(u) && u.length > max) return t.failure(u, c, `must contain at most ${max} ${noun}`);
        return array.validate(u, c);
      },
      array.encode,
    ),
    { type: "array", items: toJsonSchema(item), minItems: min, maxItems: max },
  );
};

const Content = required(boundedText(MAX_CONTENT));
const PlainText = required(boundedText(1000));
const Url = required(boundedText(MAX_URL));
const Align = t.keyof({ left: null, center: null, right: null }, "Align");

/** Colours a block may set on itself; the rest comes from the company's email theme. */
const BlockStyles = t.exact(t.partial({ backgroundColor: optional(HexColor), textColor: optional(HexColor) }), "BlockStyles");

const block = <T extends string, R extends t.Props, O extends t.Props>(type: T, requiredProps: R, optionalProps: O) =>
  t.exact(
    t.intersection([
      t.type({ type: t.literal(type), ...requiredProps }),
      t.partial({ id: optional(boundedText(100)), styles: optional(BlockStyles), ...optionalProps }),
    ]),
    `${type}Block`,
  );

export const HeadingBlock = block(
  "heading",
  { content: Content },
  { level: optional(t.union([t.literal(1), t.literal(2), t.literal(3)])), align: optional(Align) },
);
export const TextBlock = block(
  "text",
  { content: Content },
  { variant: optional(t.keyof({ paragraph: null, lead: null, html: null }, "TextVariant")), align: optional(Align) },
);
export const ListBlock = block(
  "list",
  { items: required(arrayOf(t.exact(t.type({ content: Content }), "ListItem"), 1, 100)) },
  { variant: optional(t.keyof({ bullet: null, numbered: null }, "ListVariant")) },
);
export const ButtonBlock = block(
  "button",
  { text: PlainText, url: Url },
  { variant: optional(t.keyof({ primary: null, secondary: null }, "ButtonVariant")), align: optional(Align) },
);
export const ImageBlock = block(
  "image",
  { src: Url },
  { alt: optional(t.string), href: optional(Url), width: optional(intIn(16, 800)), align: optional(Align) },
);
export const DividerBlock = block("divider", {}, {});
export const SpacerBlock = block("spacer", {}, { height: optional(intIn(4, 200)) });
export const HtmlBlock = block("html", { content: Content }, {});
export const FooterBlock = block(
  "footer",
  {},
  {
    variant: optional(t.keyof({ standard: null, compact: null }, "FooterVariant")),
    /** Defaults to true; the unsubscribe link is injected anyway when the email has none. */
    showUnsubscribe: optional(t.boolean),
    content: optional(Content),
  },
);

export type HeadingBlock = t.TypeOf<typeof HeadingBlock>;
export type TextBlock = t.TypeOf<typeof TextBlock>;
export type ListBlock = t.TypeOf<typeof ListBlock>;
export type ButtonBlock = t.TypeOf<typeof ButtonBlock>;
export type ImageBlock = t.TypeOf<typeof ImageBlock>;
export type DividerBlock = t.TypeOf<typeof DividerBlock>;
export type SpacerBlock = t.TypeOf<typeof SpacerBlock>;
export type HtmlBlock = t.TypeOf<typeof HtmlBlock>;
export type FooterBlock = t.TypeOf<typeof FooterBlock>;

/** Blocks that may sit inside a column. */
export type ContentBlock = HeadingBlock | TextBlock | ListBlock | ButtonBlock | ImageBlock | DividerBlock | SpacerBlock | HtmlBlock;

const CONTENT_BLOCKS = {
  heading: HeadingBlock,
  text: TextBlock,
  list: ListBlock,
  button: ButtonBlock,
  image: ImageBlock,
  divider: DividerBlock,
  spacer: SpacerBlock,
  html: HtmlBlock,
} as const;

/**
 * A union told apart by `type`: an unknown type fails at `<path>.type` naming the known ones,
 * and a known type reports its own fields' errors (an io-ts union would report every member).
 */
function taggedUnion<A extends { readonly type: string }>(name: string, members: Readonly<Record<string, t.Mixed>>): t.Type<A, unknown, unknown> {
  const types = Object.keys(members);
  const typeCodec = oneOf(types);
  const codec = new t.Type<A, unknown, unknown>(
    name,
    (u): u is A => typeof u === "object" && u !== null && Object.hasOwn(members, (u as { type?: unknown }).type as string) && members[(u as A).type]!.is(u),
    (u, c) => {
      if (typeof u !== "object" || u === null || Array.isArray(u)) return t.failure(u, c, "must be a block object with a type");
      const type = (u as { type?: unknown }).type;
      const member = typeof type === "string" && Object.hasOwn(members, type) ? members[type] : undefined;
      if (!member) {
        const message = type === undefined ? "is required" : `is not a known block type; use one of: ${types.join(", ")}`;
        return t.failure(type, t.appendContext(c, "type", typeCodec, type), message);
      }
      // The member stands in this context entry, so failure paths skip its intersection parts as usual.
      const last = c[c.length - 1];
      const context: t.Context = last ? [...c.slice(0, -1), { ...last, type: member }] : c;
      return member.validate(u, context) as t.Validation<A>;
    },
    (a) => members[a.type]!.encode(a),
  );
  return withSchema(codec, { oneOf: Object.values(members).map((member) => toJsonSchema(member)) });
}

const ContentBlockCodec = taggedUnion<ContentBlock>("ContentBlock", CONTENT_BLOCKS);

/** Side-by-side columns (2 to 4) of content blocks; they stack on narrow screens. */
export const ColumnsBlock = block(
  "columns",
  { columns: required(arrayOf(t.exact(t.type({ blocks: required(arrayOf(ContentBlockCodec, 1, 50, "blocks")) }), "Column"), 2, 4, "columns")) },
  {},
);
export type ColumnsBlock = t.TypeOf<typeof ColumnsBlock>;

export type EmailBlock = ContentBlock | FooterBlock | ColumnsBlock;
export type BlockType = EmailBlock["type"];

const ALL_BLOCKS = { ...CONTENT_BLOCKS, footer: FooterBlock, columns: ColumnsBlock } as const;

export const EmailBlockCodec = taggedUnion<EmailBlock>("EmailBlock", ALL_BLOCKS);

/** A `blocks` field: up to MAX_BLOCKS blocks (an empty list is the use case's to refuse). */
export const EmailBlocks = arrayOf(EmailBlockCodec, 0, MAX_BLOCKS, "blocks");

export const BLOCK_TYPES = Object.keys(ALL_BLOCKS) as BlockType[];

const BLOCK_NOTES: Readonly<Record<BlockType, string>> = {
  heading: "A title; content is inline HTML, level 1 (default) to 3 sizes it from the theme.",
  text: "A paragraph of inline HTML; variant lead uses the theme's lead size.",
  list: "A bulleted (default) or numbered list; each item's content is inline HTML.",
  button: "A call to action: text (plain) linking to url; variant primary (theme color) or secondary (outlined).",
  image: "An image from src (http/https), with alt text, optional link (href), width in pixels and alignment.",
  divider: "A horizontal rule in the theme's border color.",
  spacer: "Vertical space, height in pixels (default 24).",
  html: "Raw HTML written by the company, placed as is.",
  footer: "Company name, optional content (inline HTML) and the unsubscribe link (showUnsubscribe, default true); variant standard or compact.",
  columns: "2 to 4 columns side by side, each with its own content blocks (no footer or nested columns).",
};

export interface BlockField {
  readonly name: string;
  readonly required: boolean;
  readonly type: string;
  readonly values?: readonly unknown[];
  readonly itemFields?: readonly BlockField[];
}

export interface BlockTypeDescription {
  readonly type: BlockType;
  readonly creatable: boolean;
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly fields: readonly BlockField[];
  readonly notes: string;
}

function fieldOf(name: string, schema: JsonSchema, required: boolean): BlockField {
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  const own = branches?.find((branch) => branch.type !== "null") ?? schema;
  const values = (own.enum as unknown[] | undefined) ?? (branches?.every((branch) => "const" in branch) ? branches.map((branch) => branch.const) : undefined);
  const items = own.items as JsonSchema | undefined;
  const itemProps = items?.properties as Record<string, JsonSchema> | undefined;
  const itemRequired = (items?.required as string[] | undefined) ?? [];
  return {
    name,
    required,
    type:
      values && values.every((value) => typeof value === "number")
        ? "integer"
        : String((own.type as string | undefined) ?? (values ? typeof values[0] : "object")),
    ...(values ? { values } : {}),
    ...(itemProps
      ? { itemFields: Object.entries(itemProps).map(([itemName, itemSchema]) => fieldOf(itemName, itemSchema, itemRequired.includes(itemName))) }
      : {}),
  };
}

/** The catalog of block types (GET /email-blocks), read from the codecs themselves. */
export function describeBlockTypes(): BlockTypeDescription[] {
  return BLOCK_TYPES.map((type) => {
    const schema = toJsonSchema(ALL_BLOCKS[type]);
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = ((schema.required as string[] | undefined) ?? []).filter((name) => name !== "type");
    const names = Object.keys(properties).filter((name) => name !== "type");
    return {
      type,
      creatable: true,
      required,
      optional: names.filter((name) => !required.includes(name)),
      fields: names.map((name) => fieldOf(name, properties[name]!, required.includes(name))),
      notes: BLOCK_NOTES[type],
    };
  });
}
