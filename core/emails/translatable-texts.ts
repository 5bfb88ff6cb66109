import type { EmailBlock } from "./blocks.js";
import type { EmailContent } from "./model.js";

/**
 * The texts of an email a reader sees, for machine translation: the subject and preview text
 * (plain), and the body's html or each block's words (rich-text fields as HTML, button text and
 * image alt as plain text). URLs, styles and structure are not texts: a translation keeps them.
 */
export type TextFormat = "text" | "html";

export interface TranslatableText {
  readonly text: string;
  readonly format: TextFormat;
}

type Visit = (text: string, format: TextFormat) => string;

function mapBlock(block: EmailBlock, visit: Visit): EmailBlock {
  switch (block.type) {
    case "heading":
    case "text":
    case "html":
      return { ...block, content: visit(block.content, "html") };
    case "list":
      return { ...block, items: block.items.map((item) => ({ ...item, content: visit(item.content, "html") })) };
    case "button":
      return { ...block, text: visit(block.text, "text") };
    case "image":
      return block.alt === undefined ? block : { ...block, alt: visit(block.alt, "text") };
    case "footer":
      return block.content === undefined ? block : { ...block, content: visit(block.content, "html") };
    case "columns":
      return {
        ...block,
        columns: block.columns.map((column) => ({ ...column, blocks: column.blocks.map((inner) => mapBlock(inner, visit) as typeof inner) })),
      };
    case "divider":
    case "spacer":
      return block;
  }
}

/** The content with each text replaced by `visit`'s answer, visited in one fixed order. */
function mapTexts(content: EmailContent, visit: Visit): EmailContent {
  return {
    subject: visit(content.subject, "text"),
    previewText: content.previewText === null ? null : visit(content.previewText, "text"),
    body: "html" in content.body ? { html: visit(content.body.html, "html") } : { blocks: content.body.blocks.map((block) => mapBlock(block, visit)) },
  };
}

export function translatableTexts(content: EmailContent): TranslatableText[] {
  const texts: TranslatableText[] = [];
  mapTexts(content, (text, format) => {
    texts.push({ text, format });
    return text;
  });
  return texts;
}

/** The content with its texts replaced, in the order translatableTexts gave them. */
export function withTexts(content: EmailContent, texts: readonly string[]): EmailContent {
  let next = 0;
  return mapTexts(content, (text) => texts[next++] ?? text);
}

const MERGE_TAG = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;

/**
 * Merge tags (`{{ firstName }}`, `{% if %}`) must reach the translation unchanged: they go out as
 * numbered placeholders and are put back after. A translation that lost or repeated a
 * placeholder is not used: the text stays as written, so the email still renders.
 */
export function protectMergeTags(text: string): { readonly text: string; restore(translated: string): string } {
  const tags: string[] = [];
  const protectedText = text.replace(MERGE_TAG, (tag) => `[[${tags.push(tag) - 1}]]`);
  return {
    text: protectedText,
    restore(translated) {
      const seen = tags.map((_, index) => translated.split(`[[${index}]]`).length - 1);
      if (seen.some((count) => count !== 1)) return text;
      return translated.replace(/\[\[(\d+)\]\]/g, (placeholder, index: string) => tags[Number(index)] ?? placeholder);
    },
  };
}
