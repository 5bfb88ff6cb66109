import { notFound } from "../shared/errors.js";
import type { EmailBlock, FooterBlock } from "./blocks.js";

/** An email's body: raw HTML written by the company, or blocks rendered with the company's theme. */
export type EmailBody = { readonly html: string } | { readonly blocks: readonly EmailBlock[] };

/** What an email says, before merge tags are filled. */
export interface EmailContent {
  readonly subject: string;
  readonly previewText: string | null;
  readonly body: EmailBody;
}

/**
 * Reusable email content (compat-reference §12): the body behind a campaign or a transactional
 * email too. Deleting one hides it from the API (`deletedAt`); what points at it keeps its content.
 */
export interface Template extends EmailContent {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly labels: readonly string[];
  readonly deletedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const COMPONENT_TYPES = ["section", "footer"] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

export const DEFAULT_SLOTS = ["footer"] as const;
export type DefaultSlot = (typeof DEFAULT_SLOTS)[number];

/**
 * A reusable group of blocks (spec, Email component). An email that uses one holds a copy of
 * its blocks, so editing the component changes no existing email; only the default footer is
 * applied at render time.
 */
export interface EmailComponent {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly description: string | null;
  readonly blocks: readonly EmailBlock[];
  readonly componentType: ComponentType;
  readonly defaultSlot: DefaultSlot | null;
  /** Goes up by one each time the blocks change. */
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const TEMPLATE_NOT_FOUND = notFound("Template not found");
export const COMPONENT_NOT_FOUND = notFound("Email component not found");

export const isBlocksBody = (body: EmailBody): body is { readonly blocks: readonly EmailBlock[] } => "blocks" in body;

/**
 * The default footer always offers the unsubscribe link (spec: editing it keeps the link
 * enabled): its footer blocks get `showUnsubscribe: true`. Returns the blocks and whether any
 * block asked otherwise.
 */
export function keepUnsubscribeEnabled(blocks: readonly EmailBlock[]): { blocks: EmailBlock[]; overridden: boolean } {
  let overridden = false;
  const kept = blocks.map((block): EmailBlock => {
    if (block.type !== "footer") return block;
    if (block.showUnsubscribe === false) overridden = true;
    return { ...block, showUnsubscribe: true } satisfies FooterBlock;
  });
  return { blocks: kept, overridden };
}

/** The footer emails get when the company set no default: its name and the unsubscribe link. */
export const GENERATED_FOOTER: readonly EmailBlock[] = [{ type: "footer", variant: "standard", showUnsubscribe: true }];

/** JSON with object keys sorted: stored documents may come back with their keys reordered (Postgres jsonb). */
export const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(",")}]`
    : typeof value === "object" && value !== null
      ? `{${Object.keys(value)
          .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
          .sort()
          .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
          .join(",")}}`
      : JSON.stringify(value);

export const sameBlocks = (a: readonly EmailBlock[], b: readonly EmailBlock[]): boolean => canonical(a) === canonical(b);
