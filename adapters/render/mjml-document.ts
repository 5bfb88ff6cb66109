import type { EmailTheme } from "../../core/company/email-theme.js";
import type { ContentBlock, EmailBlock, FooterBlock } from "../../core/emails/blocks.js";
import { escapeHtml } from "./html-text.js";

/**
 * Blocks (merge tags already filled) to MJML, styled from the company's theme: colors,
 * typography and layout. The body sits on the theme's surface inside the page background; the
 * footer sits below it on the background, in muted text.
 */

export interface DocumentContext {
  readonly theme: EmailTheme;
  readonly companyName: string;
  readonly unsubscribeUrl: string;
  readonly viewInBrowserUrl?: string | undefined;
}

export interface EmailDocument {
  readonly subject: string;
  readonly previewText: string | null;
  readonly body: readonly EmailBlock[];
  readonly footer: readonly EmailBlock[];
}

const SANS = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const SERIF = "Georgia, 'Times New Roman', Times, serif";

type Attributes = Readonly<Record<string, string | number | undefined>>;

function tag(name: string, attributes: Attributes, content?: string): string {
  const attrs = Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeHtml(String(value))}"`)
    .join("");
  return content === undefined ? `<${name}${attrs} />` : `<${name}${attrs}>${content}</${name}>`;
}

const px = (value: number): string => `${value}px`;

/** Black or white, whichever reads better on the color (WCAG relative luminance). */
export function readableOn(hex: string): string {
  const full = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join("")}` : hex;
  const channel = (offset: number) => {
    const value = parseInt(full.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.4 ? "#111111" : "#FFFFFF";
}

function head(theme: EmailTheme, subject: string, previewText: string | null): string {
  const { colors, typography, layout } = theme;
  const padding = `0 ${px(layout.containerPaddingX)} ${px(layout.blockSpacing)} ${px(layout.containerPaddingX)}`;
  const attributes = [
    tag("mj-all", { "font-family": theme.presetId === "editorial" ? SERIF : SANS }),
    tag("mj-section", { padding: "0" }),
    tag("mj-column", { padding: "0" }),
    tag("mj-text", { color: colors.text, "font-size": px(typography.baseFontSize), "line-height": String(typography.baseLineHeight), padding }),
    tag("mj-button", {
      "background-color": colors.primary,
      color: readableOn(colors.primary),
      "font-size": px(typography.buttonFontSize),
      "font-weight": "600",
      "border-radius": px(layout.baseRadius),
      "inner-padding": `${px(layout.buttonPaddingY)} ${px(layout.buttonPaddingX)}`,
      align: "left",
      padding,
    }),
    tag("mj-image", { padding }),
    tag("mj-divider", { "border-color": colors.border, "border-width": "1px", padding }),
  ].join("");
  return tag(
    "mj-head",
    {},
    [
      tag("mj-title", {}, escapeHtml(subject)),
      previewText ? tag("mj-preview", {}, escapeHtml(previewText)) : "",
      tag("mj-attributes", {}, attributes),
      tag("mj-style", {}, `a { color: ${colors.link}; } p { margin: 0 0 ${px(Math.round(layout.blockSpacing / 2))}; } p:last-child { margin-bottom: 0; }`),
    ].join(""),
  );
}

function footerContent(block: FooterBlock, context: DocumentContext): string {
  const muted = context.theme.colors.mutedText;
  const link = (href: string, label: string) => `<a href="${escapeHtml(href)}" style="color:${muted};text-decoration:underline">${label}</a>`;
  const links = [
    block.showUnsubscribe === false ? "" : link(context.unsubscribeUrl, "Unsubscribe"),
    context.viewInBrowserUrl ? link(context.viewInBrowserUrl, "View in browser") : "",
  ].filter(Boolean);
  const name = escapeHtml(context.companyName);
  if (block.variant === "compact") return [name, block.content ?? "", ...links].filter(Boolean).join(" · ");
  return [`<strong>${name}</strong>`, block.content ?? "", links.join(" · ")]
    .filter(Boolean)
    .map((line) => `<p style="margin:0 0 6px">${line}</p>`)
    .join("");
}

function component(block: ContentBlock | FooterBlock, context: DocumentContext): string {
  const { colors, typography } = context.theme;
  const color = block.styles?.textColor;
  switch (block.type) {
    case "heading": {
      const level = block.level ?? 1;
      const size = [typography.heading1Size, typography.heading2Size, typography.heading3Size][level - 1]!;
      const inherit = "margin:0;font-size:inherit;font-weight:inherit;line-height:inherit;color:inherit";
      return tag(
        "mj-text",
        { "font-size": px(size), color: color ?? colors.heading, "font-weight": "700", "line-height": "1.25", align: block.align },
        `<h${level} style="${inherit}">${block.content}</h${level}>`,
      );
    }
    case "text":
      return tag("mj-text", { "font-size": block.variant === "lead" ? px(typography.leadFontSize) : undefined, color, align: block.align }, block.content);
    case "list": {
      const list = block.variant === "numbered" ? "ol" : "ul";
      const items = block.items.map((item) => `<li style="margin:0 0 4px">${item.content}</li>`).join("");
      return tag("mj-text", { color }, `<${list} style="margin:0;padding-left:24px">${items}</${list}>`);
    }
    case "button": {
      const secondary = block.variant === "secondary";
      return tag(
        "mj-button",
        {
          href: block.url,
          align: block.align,
          "background-color": secondary ? "transparent" : undefined,
          color: secondary ? colors.primary : color,
          border: secondary ? `2px solid ${colors.primary}` : undefined,
        },
        escapeHtml(block.text),
      );
    }
    case "image":
      return tag("mj-image", {
        src: block.src,
        alt: block.alt ?? "",
        href: block.href,
        width: block.width === undefined ? undefined : px(block.width),
        align: block.align,
      });
    case "divider":
      return tag("mj-divider", {});
    case "spacer":
      return tag("mj-spacer", { height: px(block.height ?? 24), padding: "0" });
    case "html":
      return tag("mj-text", { color }, block.content);
    case "footer":
      return tag("mj-text", { align: "center", color: color ?? colors.mutedText, "font-size": "12px", "line-height": "1.5" }, footerContent(block, context));
  }
}

function section(block: EmailBlock, context: DocumentContext): string {
  const background = block.styles?.backgroundColor;
  const columns = block.type === "columns" ? block.columns.map((column) => column.blocks) : [[block]];
  return tag(
    "mj-section",
    { "background-color": background },
    columns.map((blocks) => tag("mj-column", {}, blocks.map((inner) => component(inner, context)).join(""))).join(""),
  );
}

function footerWrapper(footer: readonly EmailBlock[], context: DocumentContext): string {
  if (footer.length === 0) return "";
  const { layout } = context.theme;
  return tag(
    "mj-wrapper",
    { padding: `${px(layout.blockSpacing)} 0 ${px(layout.containerPaddingY)} 0` },
    footer.map((block) => section(block, context)).join(""),
  );
}

/** The whole email. */
export function emailDocument(document: EmailDocument, context: DocumentContext): string {
  const { colors, layout } = context.theme;
  const body = tag(
    "mj-wrapper",
    {
      "background-color": colors.surface,
      padding: `${px(layout.containerPaddingY)} 0 ${px(Math.max(0, layout.containerPaddingY - layout.blockSpacing))} 0`,
      "border-radius": px(layout.baseRadius),
    },
    document.body.map((block) => section(block, context)).join(""),
  );
  const spacer = tag("mj-section", { padding: `${px(layout.containerPaddingY)} 0 0 0` }, "");
  return tag(
    "mjml",
    {},
    head(context.theme, document.subject, document.previewText) +
      tag("mj-body", { "background-color": colors.background, width: px(layout.contentWidth) }, spacer + body + footerWrapper(document.footer, context)),
  );
}

/** Only the footer, to place at the end of an email written in raw HTML. */
export function footerDocument(footer: readonly EmailBlock[], context: DocumentContext): string {
  return tag("mjml", {}, head(context.theme, "", null) + tag("mj-body", { width: px(context.theme.layout.contentWidth) }, footerWrapper(footer, context)));
}
