import type { EmailBlock } from "../../core/emails/blocks.js";
import { escapeHtml } from "./html-text.js";

/**
 * Stand-ins for a recipient's merge-filled fields in the MJML of an email, so that recipients
 * whose merge values differ (a campaign that greets each by name) share one MJML compile: MJML
 * copies text and attribute values through untouched, so each stand-in is replaced afterwards
 * by the value, written as the document builder would have written it (HTML fields as they are,
 * text and attributes escaped) and as MJML would have passed it (the whole content of an element
 * trimmed). One pass over the compiled HTML: a value that looks like a stand-in is not filled again.
 */
export class FieldSlots {
  private readonly values: Field[] = [];

  /** The fields in the order of their stand-ins. */
  get fields(): readonly Field[] {
    return this.values;
  }

  /** A field the document inserts as HTML. */
  html(value: string): string {
    return this.slot({ kind: "html", written: value });
  }

  /** A field the document escapes: text content, attribute values. */
  text(value: string): string {
    return this.slot({ kind: "text", written: escapeHtml(value), text: value });
  }

  /** The whole content of an MJML element, which MJML trims. */
  private content(value: string, escape: boolean): string {
    const trimmed = value.trim();
    return escape ? this.text(trimmed) : this.html(trimmed);
  }

  /** The compiled HTML with every stand-in replaced by its value. */
  fill(compiled: string): string {
    return compiled.replace(FIELD_SLOT, (_, index: string) => this.values[Number(index)]?.written ?? "");
  }

  /** The blocks with their merge-filled fields (those fillBlock fills) as stand-ins. */
  blocks(blocks: readonly EmailBlock[]): EmailBlock[] {
    return blocks.map((block) => this.block(block));
  }

  private block(block: EmailBlock): EmailBlock {
    switch (block.type) {
      case "heading":
        return { ...block, content: this.html(block.content) };
      case "text":
      case "html":
        return { ...block, content: this.content(block.content, false) };
      case "list":
        return { ...block, items: block.items.map((item) => ({ content: this.html(item.content) })) };
      case "button":
        return { ...block, text: this.content(block.text, true), url: this.text(block.url) };
      case "image":
        return {
          ...block,
          src: this.text(block.src),
          ...(block.alt !== undefined ? { alt: this.text(block.alt) } : {}),
          ...(block.href !== undefined ? { href: this.text(block.href) } : {}),
        };
      case "footer":
        return block.content === undefined ? block : { ...block, content: this.html(block.content) };
      case "columns":
        return { ...block, columns: block.columns.map((column) => ({ blocks: this.blocks(column.blocks) as typeof column.blocks })) };
      case "divider":
      case "spacer":
        return block;
    }
  }

  private slot(field: Field): string {
    this.values.push(field);
    return `lifecycle-field-${this.values.length - 1}-7f3a9c`;
  }
}

/** A merge-filled field as the document writes it: HTML as it is, or text escaped (`text` is the text itself). */
export type Field = { readonly kind: "html"; readonly written: string } | { readonly kind: "text"; readonly written: string; readonly text: string };

/** A stand-in: its field's index is the first group. */
export const FIELD_SLOT = /lifecycle-field-(\d+)-7f3a9c/g;
