import test from "ava";
import { parse, type DefaultTreeAdapterMap } from "parse5";
import { MjmlEmailRenderer } from "../../../adapters/render/mjml-email-renderer.js";
import { isRefusedUrl, schemeOf } from "../../../adapters/render/url-safety.js";
import { resolveEmailTheme } from "../../../core/company/email-theme.js";
import type { RenderEmailRequest, RenderedEmail } from "../../../core/emails/email-renderer.js";

const renderer = new MjmlEmailRenderer();
const UNSUBSCRIBE = "https://mail.example.test/u/tok123";
const TRACKER = "https://t.example.test/c/";

async function render(body: RenderEmailRequest["body"], variables: Record<string, unknown>): Promise<RenderedEmail> {
  const result = await renderer.render({
    theme: resolveEmailTheme(null, "#C2410C"),
    companyName: "Acme",
    subject: "Hi",
    previewText: null,
    body,
    footer: null,
    variables,
    links: { unsubscribeUrl: UNSUBSCRIBE, rewriteLink: (url) => `${TRACKER}${encodeURIComponent(url)}` },
  });
  if (result._tag === "Left") throw new Error(result.left.message);
  return result.right;
}

/** Every URL attribute of the HTML as a browser reads it (parse5 decodes character references), conditional comments included. */
function urlAttributes(html: string): Array<{ element: string; name: string; value: string }> {
  const found: Array<{ element: string; name: string; value: string }> = [];
  const visit = (node: DefaultTreeAdapterMap["node"]): void => {
    if (node.nodeName === "#comment" && /^\[if/.test((node as DefaultTreeAdapterMap["commentNode"]).data))
      visit(parse((node as DefaultTreeAdapterMap["commentNode"]).data));
    if ("tagName" in node) {
      for (const attr of node.attrs) {
        const name = attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
        if (["href", "src", "action", "formaction", "background", "poster", "xlink:href"].includes(name))
          found.push({ element: node.tagName, name, value: attr.value });
      }
    }
    if ("childNodes" in node) for (const child of node.childNodes) visit(child);
  };
  visit(parse(html, { scriptingEnabled: false }));
  return found;
}

/** What a browser would take for the scheme: tabs and newlines ignored, white space and controls trimmed, case folded. */

const browserScheme = (value: string): string =>
  value
    .replace(/[\t\n\r]/g, "")
    // eslint-disable-next-line no-control-regex -- a browser skips leading control characters before the scheme
    .replace(/^[\u0000-\u0020]+/, "")
    .split(":")[0]!
    .toLowerCase();

const HOSTILE = [
  "javascript:alert(1)",
  " JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  "\u0001javascript:alert(1)",
  "&#106;avascript:alert(1)",
  "javascript&colon;alert(1)",
  "vbscript:msgbox(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
];

const TEMPLATE = [
  '<html><body><p><a href="{{url}}">link</a> <a href="{{ url }}&x=1">suffixed</a> <area href="{{url}}"></p>',
  '<img src="{{url}}" alt=""><table background="{{url}}"><tr><td>x</td></tr></table>',
  '<form action="{{url}}"><button formaction="{{url}}">go</button></form><video poster="{{url}}"></video>',
  '<svg><a xlink:href="{{url}}"><text>t</text></a></svg><iframe src="{{url}}"></iframe>',
  '<!--[if mso]><v:roundrect href="{{url}}"><![endif]-->',
  "</body></html>",
].join("");

for (const url of HOSTILE) {
  test(`a merge variable ${JSON.stringify(url)} never becomes a javascript:, vbscript: or data: URL, nor a tracked link`, async (t) => {
    for (const body of [
      { html: TEMPLATE },
      {
        blocks: [
          { type: "html" as const, content: TEMPLATE },
          { type: "button" as const, text: "Go", url: "{{url}}" },
          { type: "image" as const, src: "{{url}}", href: "{{url}}" },
        ],
      },
    ]) {
      const email = await render(body, { url });
      const attributes = urlAttributes(email.html);
      t.true(attributes.length >= 10, "the attributes are all there");
      for (const attribute of attributes)
        t.false(["javascript", "vbscript", "data"].includes(browserScheme(attribute.value)), `${attribute.element} ${attribute.name}="${attribute.value}"`);
      const tracked = attributes
        .filter((attribute) => attribute.value.startsWith(TRACKER))
        .map((attribute) => decodeURIComponent(attribute.value.slice(TRACKER.length)));
      for (const destination of tracked) t.regex(destination, /^https?:\/\//, "only web links are tracked");
      t.false(/javascript:|vbscript:|data:text/i.test(email.text), "nor in the text part");
    }
  });
}

test("a web link from a merge variable is kept and tracked, and the author's own data: image stays", async (t) => {
  const inline = "data:image/png;base64,iVBORw0KGgo=";
  const email = await render(
    { html: `<html><body><a href="{{url}}">go</a><img src="${inline}" alt=""><a href="#top">top</a><a href="mailto:a@example.test">mail</a></body></html>` },
    { url: "https://shop.example.test/?a=1" },
  );
  const attributes = urlAttributes(email.html).map((attribute) => `${attribute.name}=${attribute.value}`);
  t.true(attributes.includes(`href=${TRACKER}${encodeURIComponent("https://shop.example.test/?a=1")}`));
  t.true(attributes.includes(`src=${inline}`));
  t.true(attributes.includes("href=#top"));
  t.true(attributes.includes("href=mailto:a@example.test"));
});

test("the scheme is read as a browser reads it", (t) => {
  t.is(schemeOf(" JaVa\tScRiPt:x"), "javascript");
  t.is(schemeOf("\u0000\u001fvbscript:x"), "vbscript");
  t.is(schemeOf("https://example.test/a:b"), "https");
  t.is(schemeOf("/path:with-colon"), null);
  t.is(schemeOf("no colon"), null);
});

test("data: URLs pass only where an image is all they can be", (t) => {
  t.false(isRefusedUrl("img", "src", "data:image/png;base64,AAAA"));
  t.false(isRefusedUrl("td", "background", "data:image/gif;base64,AAAA"));
  t.false(isRefusedUrl("video", "poster", "data:image/jpeg;base64,AAAA"));
  t.true(isRefusedUrl("iframe", "src", "data:image/svg+xml,<svg onload=alert(1)>"));
  t.true(isRefusedUrl("a", "href", "data:image/png;base64,AAAA"));
  t.true(isRefusedUrl("img", "src", "data:text/html,hi"));
  t.true(isRefusedUrl("img", "src", "javascript:alert(1)"));
  t.false(isRefusedUrl("a", "href", "https://example.test"));
  t.false(isRefusedUrl("a", "href", "mailto:a@example.test"));
});
