import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { BLOCK_TYPES, describeBlockTypes, type BlockType, type BlockTypeDescription, type EmailBlock } from "./blocks.js";

/**
 * One block type's full reference (GET /email-blocks/{blockType}): its description from the
 * catalog plus a minimal valid example an author can start from. The examples are checked
 * against the block codecs by the tests, so they cannot drift from what is accepted.
 */
export const BLOCK_EXAMPLES: Readonly<Record<BlockType, EmailBlock>> = {
  heading: { type: "heading", content: "Welcome, {{subscriber.firstName}}", level: 1 },
  text: { type: "text", content: "Thanks for joining. Here is what happens next." },
  list: { type: "list", variant: "bullet", items: [{ content: "Set up your profile" }, { content: "Invite your team" }] },
  button: { type: "button", text: "Get started", url: "https://example.com/start", variant: "primary" },
  image: { type: "image", src: "https://example.com/banner.png", alt: "Product banner", width: 600, align: "center" },
  divider: { type: "divider" },
  spacer: { type: "spacer", height: 24 },
  html: { type: "html", content: '<p style="margin:0">Custom <b>HTML</b></p>' },
  footer: { type: "footer", variant: "standard", showUnsubscribe: true },
  columns: {
    type: "columns",
    columns: [{ blocks: [{ type: "text", content: "Left column" }] }, { blocks: [{ type: "text", content: "Right column" }] }],
  },
};

export interface BlockTypeReference extends BlockTypeDescription {
  readonly example: EmailBlock;
}

export function describeBlockType(type: string): Result<BlockTypeReference> {
  const description = describeBlockTypes().find((candidate) => candidate.type === type);
  if (!description) return fail(notFound(`Unknown block type '${type}': use one of ${BLOCK_TYPES.join(", ")}`));
  return ok({ ...description, example: BLOCK_EXAMPLES[description.type] });
}
