import test from "ava";
import { DEFAULT_RENDER_LIMITS, MjmlEmailRenderer } from "../../../adapters/render/mjml-email-renderer.js";
import { resolveEmailTheme } from "../../../core/company/email-theme.js";
import type { EmailBlock } from "../../../core/emails/blocks.js";
import type { RenderEmailRequest, RenderedEmail } from "../../../core/emails/email-renderer.js";
import type { DomainError } from "../../../core/shared/errors.js";

const UNSUBSCRIBE = "https://mail.example.test/u/tok123";
const VIEW = "https://mail.example.test/v/tok123";

const renderer = new MjmlEmailRenderer();

function request(overrides: Partial<RenderEmailRequest> = {}): RenderEmailRequest {
  return {
    theme: resolveEmailTheme(null, "#C2410C"),
    companyName: "Acme & Sons",
    subject: "Welcome, {{ firstName }}",
    previewText: "Your account is ready",
    body: {
      blocks: [
        { type: "heading", content: "Hello {{ firstName }}" },
        { type: "text", content: "Thanks for joining <b>{{ plan }}</b>." },
      ],
    },
    footer: null,
    variables: { firstName: "Ann", plan: "Pro" },
    links: { unsubscribeUrl: UNSUBSCRIBE },
    ...overrides,
  };
}

async function render(overrides: Partial<RenderEmailRequest> = {}, using = renderer): Promise<RenderedEmail> {
  const result = await using.render(request(overrides));
  if (result._tag === "Left") throw new Error(`render failed: ${result.left.message}`);
  return result.right;
}

async function renderError(overrides: Partial<RenderEmailRequest>, using = renderer): Promise<DomainError> {
  const result = await using.render(request(overrides));
  if (result._tag === "Right") throw new Error("render succeeded");
  return result.left;
}

/** Every href of the HTML, entities decoded. */
const hrefs = (html: string): string[] => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, "&"));

test("blocks become a themed, responsive HTML document with the merge tags filled", async (t) => {
  const email = await render();
  t.is(email.subject, "Welcome, Ann");
  t.is(email.previewText, "Your account is ready");
  t.regex(email.html, /^<!doctype html>/i);
  t.regex(email.html, /<title>Welcome, Ann<\/title>/);
  t.true(email.html.includes("Hello Ann"));
  t.true(email.html.includes("Thanks for joining <b>Pro</b>."));
  t.true(email.html.includes("@media only screen"), "MJML's responsive styles");
  // Theme: surface and background colors, the heading color and size.
  t.true(email.html.includes("#F4F4F5") && email.html.includes("#FFFFFF"));
  t.regex(email.html, /font-size:32px[^"]*color:#18181B|color:#18181B[^"]*font-size:32px/);
  t.true(email.html.includes("Your account is ready"), "preview text as the hidden preheader");
  t.deepEqual([email.missingVariables, email.unresolvedMergeTags, email.unusedVariables], [[], [], []]);
});

test("the theme's primary color styles buttons, and its layout the content width", async (t) => {
  const theme = resolveEmailTheme({ presetId: "soft", layout: { contentWidth: 640 } }, "#0F766E");
  const email = await render({ theme, body: { blocks: [{ type: "button", text: "Open", url: "https://app.example.test/start" }] } });
  t.regex(email.html, /background:#0F766E/);
  t.true(email.html.includes("max-width:640px"));
  t.regex(email.html, /border-radius:14px/, "the soft preset's radius");
  const light = await render({
    theme: resolveEmailTheme(null, "#FDE047"),
    body: { blocks: [{ type: "button", text: "Open", url: "https://a.example.test" }] },
  });
  t.regex(light.html, /background:#FDE047;color:#111111/, "dark text on a light primary");
});

test("merge-tag values are escaped in HTML, and plain fields are escaped as a whole", async (t) => {
  const script = "<script>alert(1)</script>";
  const email = await render({
    subject: "Hi {{ name }}",
    body: {
      blocks: [
        { type: "text", content: "Dear {{ name }}" },
        { type: "button", text: "{{ name }}", url: "https://x.example.test/?q={{ name }}" },
        { type: "image", src: "https://img.example.test/a.png", alt: "{{ name }}" },
      ],
    },
    variables: { name: script },
  });
  t.false(email.html.includes(script));
  t.true(email.html.includes("Dear &lt;script&gt;alert(1)&lt;/script&gt;"));
  t.true(email.html.includes('alt="&lt;script&gt;alert(1)&lt;/script&gt;"'));
  t.is(email.subject, `Hi ${script}`, "the subject is text, not HTML");
  const raw = await render({ body: { html: "<html><body><p>{{ name }}</p></body></html>" }, variables: { name: script } });
  t.true(raw.html.includes("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"));
});

test("a URL that a variable turns into another scheme becomes '#'", async (t) => {
  const email = await render({ body: { blocks: [{ type: "button", text: "Go", url: "{{ target }}" }] }, variables: { target: "javascript:alert(1)" } });
  t.false(email.html.includes("javascript:"));
  t.true(hrefs(email.html).includes("#"));
});

test("without a footer component, the generated footer names the company and links to unsubscribe", async (t) => {
  const email = await render({ links: { unsubscribeUrl: UNSUBSCRIBE, viewInBrowserUrl: VIEW } });
  t.true(email.html.includes("<strong>Acme &amp; Sons</strong>"));
  t.true(hrefs(email.html).includes(UNSUBSCRIBE));
  t.true(hrefs(email.html).includes(VIEW));
  t.regex(email.text, /Acme & Sons/);
  t.regex(email.text, new RegExp(`Unsubscribe \\[${UNSUBSCRIBE}\\]`));
});

test("a footer component replaces the generated footer; its merge tags and links are filled", async (t) => {
  const footer: EmailBlock[] = [{ type: "footer", variant: "compact", content: "1 Main St · {{ region }}" }];
  const email = await render({ footer, variables: { firstName: "Ann", plan: "Pro", region: "EU" } });
  t.false(email.html.includes("<strong>Acme &amp; Sons</strong>"));
  t.true(email.html.includes("Acme &amp; Sons · 1 Main St · EU · "));
  t.true(hrefs(email.html).includes(UNSUBSCRIBE));
});

test("the unsubscribe link is always present, even when the footer turns it off or has no footer block", async (t) => {
  for (const footer of [[{ type: "footer", showUnsubscribe: false }], [{ type: "text", content: "Just words" }]] as EmailBlock[][]) {
    const email = await render({ footer });
    t.is(hrefs(email.html).filter((href) => href === UNSUBSCRIBE).length, 1);
    t.regex(email.text, /Unsubscribe/);
  }
  // A body with its own footer block keeps it instead of the default one.
  const own = await render({
    body: {
      blocks: [
        { type: "text", content: "Body" },
        { type: "footer", content: "Own footer" },
      ],
    },
    footer: [{ type: "footer", content: "Default footer" }],
  });
  t.true(own.html.includes("Own footer"));
  t.false(own.html.includes("Default footer"));
  t.true(hrefs(own.html).includes(UNSUBSCRIBE));
});

test("raw HTML bodies get the footer before </body>, the preheader after <body>, and {{unsubscribeUrl}} works", async (t) => {
  const html = '<html><head><title>x</title></head><body><p>Hi {{ firstName }}</p><a href="{{ unsubscribeUrl }}">Leave</a></body></html>';
  const email = await render({ body: { html } });
  t.regex(email.html, /<body><div style="display:none;[^"]*">Your account is ready<\/div><p>Hi Ann<\/p>/);
  t.regex(email.html, /<strong>Acme &amp; Sons<\/strong>[\s\S]*<\/body><\/html>$/);
  t.is(hrefs(email.html).filter((href) => href === UNSUBSCRIBE).length, 2, "the author's link and the footer's");
  // A fragment without <body> gets everything at the end.
  const fragment = await render({ body: { html: "<p>Short</p>" }, footer: [{ type: "text", content: "No link here" }] });
  t.true(fragment.html.startsWith('<div style="display:none;'));
  t.regex(fragment.html, /No link here[\s\S]*Unsubscribe<\/a><\/p>$/);
});

test("click tracking rewrites every http(s) link except the unsubscribe link; the open pixel is appended", async (t) => {
  const rewrite = (url: string) => `https://t.example.test/c?u=${encodeURIComponent(url)}`;
  const email = await render({
    body: {
      blocks: [
        { type: "text", content: 'Read <a href="https://blog.example.test/post?a=1&amp;b=2">the post</a> or <a href="mailto:help@example.test">mail us</a>' },
        { type: "button", text: "Start", url: "https://app.example.test/start" },
      ],
    },
    links: { unsubscribeUrl: UNSUBSCRIBE, viewInBrowserUrl: VIEW, rewriteLink: rewrite, openPixelUrl: "https://t.example.test/o/abc.gif" },
  });
  const links = hrefs(email.html);
  t.true(links.includes(rewrite("https://blog.example.test/post?a=1&b=2")), "entities decoded before rewriting");
  t.true(links.includes(rewrite("https://app.example.test/start")));
  t.true(links.includes(rewrite(VIEW)));
  t.true(links.includes("mailto:help@example.test"), "only http(s) links are tracked");
  t.true(links.includes(UNSUBSCRIBE));
  t.false(links.includes("https://app.example.test/start"));
  t.regex(email.html, /<img src="https:\/\/t\.example\.test\/o\/abc\.gif" width="1" height="1" alt=""[^>]*\/><\/body>/);
  t.false(email.text.includes("abc.gif"), "the pixel is not in the text part");
  t.true(email.text.includes(rewrite("https://app.example.test/start")));

  const raw = await render({
    body: { html: '<p><a href="https://x.example.test/a">A</a></p>' },
    links: { unsubscribeUrl: UNSUBSCRIBE, rewriteLink: rewrite, openPixelUrl: "https://t.example.test/o.gif" },
  });
  t.true(hrefs(raw.html).includes(rewrite("https://x.example.test/a")));
  t.true(hrefs(raw.html).includes(UNSUBSCRIBE));
  t.true(
    raw.html.endsWith(
      '<img src="https://t.example.test/o.gif" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />',
    ),
  );
});

test("the text part holds the words, the list items, the button link and the footer", async (t) => {
  const email = await render({
    body: {
      blocks: [
        { type: "heading", content: "Your order" },
        { type: "list", items: [{ content: "Socks" }, { content: "Hat" }] },
        { type: "divider" },
        { type: "button", text: "Track it", url: "https://shop.example.test/track" },
        { type: "columns", columns: [{ blocks: [{ type: "text", content: "Left column" }] }, { blocks: [{ type: "text", content: "Right column" }] }] },
      ],
    },
  });
  t.true(email.text.startsWith("Your order"), "no hidden preview text first");
  t.regex(email.text, /\* Socks\n \* Hat/);
  t.regex(email.text, /Track it \[https:\/\/shop\.example\.test\/track\]/);
  t.regex(email.text, /Left column[\s\S]*Right column/);
  t.regex(email.text, /Acme & Sons[\s\S]*Unsubscribe/);
  t.false(/\n\s*\n\s*\n/.test(email.text), "no runs of blank lines");
});

test("the text part keeps a paragraph on one line, with a blank line between blocks", async (t) => {
  const long = "A paragraph long enough to have been wrapped at seventy-eight columns before, which the text part now keeps whole.";
  const email = await render({
    body: {
      blocks: [
        { type: "text", content: `<p>${long}</p><p>Second</p>` },
        { type: "text", content: "Third" },
      ],
    },
  });
  t.true(email.text.startsWith(`${long}\n\nSecond\n\nThird\n\n`), email.text);
});

test("missing variables are reported with where they are used, without failing the render", async (t) => {
  const email = await render({
    subject: "Hi {{ firstName }}",
    previewText: "{{ promo.code }}",
    body: {
      blocks: [
        { type: "text", id: "intro", content: "{{ firstName }} {{ lastName }} {{ nickname | default: 'friend' }}{% if coupon %}{{ coupon }}{% endif %}" },
        { type: "list", items: [{ content: "{% for item in items %}{{ item.name }}{% endfor %}" }] },
      ],
    },
    variables: { firstName: "Ann", lastName: null, promo: {}, items: [{ name: "Socks" }], extra: 1 },
    suppliedVariables: ["firstName", "extra"],
  });
  t.deepEqual(email.missingVariables, ["promo.code", "lastName"]);
  t.deepEqual(email.unresolvedMergeTags, [
    { name: "promo.code", reason: "unknown", usedIn: [{ surface: "previewText" }] },
    { name: "lastName", reason: "no_value", usedIn: [{ surface: "block", blockId: "intro", blockType: "text", field: "content" }] },
  ]);
  t.deepEqual(email.unusedVariables, ["extra"]);
  t.is(email.previewText, null, "an empty preview is none");
  t.true(email.html.includes("Ann  friend"));
  t.true(email.html.includes("Socks"));
});

test("the unsubscribe and view-in-browser merge tags come from the links, not from variables", async (t) => {
  const email = await render({
    body: { blocks: [{ type: "text", content: '<a href="{{ viewInBrowserUrl }}">web</a> <a href="{{ unsubscribeUrl }}">out</a>' }] },
    variables: { unsubscribeUrl: "https://evil.example.test" },
    links: { unsubscribeUrl: UNSUBSCRIBE, viewInBrowserUrl: VIEW },
  });
  t.false(email.html.includes("evil.example.test"));
  t.true(hrefs(email.html).includes(VIEW));
  const without = await render({ body: { blocks: [{ type: "text", content: '<a href="{{ viewInBrowserUrl }}">web</a>' }] } });
  t.deepEqual(without.missingVariables, ["viewInBrowserUrl"]);
});

test("broken merge-tag syntax, unknown filters and file includes are 400s naming the field", async (t) => {
  const unclosed = await renderError({ body: { blocks: [{ type: "text", id: "b1", content: "{% if x %}open" }] } });
  t.is(unclosed._tag, "BadRequest");
  t.is(unclosed.code, "INVALID_MERGE_TAG");
  t.regex(unclosed.message, /^Invalid merge tag in text block 'b1' content: tag \{% if x %\} not closed/);
  const filter = await renderError({ subject: "{{ name | shout }}" });
  t.regex(filter.message, /^Invalid merge tag in subject: undefined filter: shout/);
  const include = await renderError({ body: { html: "{% include '/etc/passwd' %}" } });
  t.is(include.code, "INVALID_MERGE_TAG");
  t.regex(include.message, /^Invalid merge tag in body: .*Failed to lookup/);
  t.false(include.message.includes("root:"));
});

test("render-time limits stop abusive templates with a clear error", async (t) => {
  const memory = await renderError({ body: { blocks: [{ type: "text", content: "{% for i in (1..100000000) %}x{% endfor %}" }] } });
  t.deepEqual(
    [memory._tag, memory.code, memory.message],
    ["BadRequest", "RENDER_LIMIT_EXCEEDED", "The email cannot be rendered: the merge tags in text block content exceed the memory limit"],
  );

  const tight = new MjmlEmailRenderer({ ...DEFAULT_RENDER_LIMITS, renderLimit: 30, memoryLimit: 1e12 });
  const slow = await renderError(
    { body: { html: "{% for i in (1..3000) %}{% for j in (1..3000) %}{% assign k = j | plus: i %}{% endfor %}{% endfor %}" } },
    tight,
  );
  t.deepEqual([slow.code, slow.message], ["RENDER_LIMIT_EXCEEDED", "The email cannot be rendered: the merge tags in body exceed the time limit"]);

  const small = new MjmlEmailRenderer({ ...DEFAULT_RENDER_LIMITS, parseLimit: 100 });
  const long = await renderError({ body: { html: `{{ a }}${"x".repeat(200)}` } }, small);
  t.deepEqual([long.code, long.message], ["RENDER_LIMIT_EXCEEDED", "The email cannot be rendered: the merge tags in body exceed the size limit"]);

  const capped = new MjmlEmailRenderer({ ...DEFAULT_RENDER_LIMITS, maxHtmlLength: 10_000 });
  const big = await renderError({ body: { html: "x".repeat(20_000) } }, capped);
  t.deepEqual([big.code, big.message], ["RENDER_LIMIT_EXCEEDED", "The email cannot be rendered: its HTML exceeds 10000 characters"]);
});

test("prototype properties are not reachable from merge tags", async (t) => {
  const email = await render({ body: { blocks: [{ type: "text", content: "[{{ firstName.constructor.name }}][{{ firstName.size }}]" }] } });
  t.true(email.html.includes("[][3]"));
});

test("raw HTML bodies of many recipients share one compiled footer, each with its own links", async (t) => {
  const own = new MjmlEmailRenderer();
  const body = { html: "<p>Receipt</p>" };
  const first = await render(
    { body, links: { unsubscribeUrl: "https://mail.example.test/u/a?x=1&y=2", viewInBrowserUrl: "https://mail.example.test/v/a" } },
    own,
  );
  const second = await render({ body, links: { unsubscribeUrl: "https://mail.example.test/u/b", viewInBrowserUrl: "https://mail.example.test/v/b" } }, own);
  t.true(hrefs(first.html).includes("https://mail.example.test/u/a?x=1&y=2"));
  t.true(hrefs(first.html).includes("https://mail.example.test/v/a"));
  t.deepEqual(
    hrefs(second.html).filter((href) => href.startsWith("https://mail.example.test/")),
    hrefs(first.html)
      .filter((href) => href.startsWith("https://mail.example.test/"))
      .map((href) => href.replace("/u/a?x=1&y=2", "/u/b").replace("/v/a", "/v/b")),
  );
  t.false(second.html.includes("/u/a"), "nothing of the first recipient's links is left");
  t.false(`${first.html}${second.html}`.includes("lifecycle-"), "no placeholder is left");
  t.regex(second.text, /https:\/\/mail\.example\.test\/u\/b/);
});

test("block emails of recipients with different merge values share one MJML compile, each with its own values, escaped as before", async (t) => {
  const own = new MjmlEmailRenderer();
  let compiles = 0;
  const compile = (own as unknown as { compile(source: string): Promise<string> }).compile.bind(own);
  (own as unknown as { compile(source: string): Promise<string> }).compile = (source) => ((compiles += 1), compile(source));
  const body = {
    blocks: [
      { type: "heading", content: "Hello {{ firstName }}" },
      { type: "text", content: "  {{ firstName }} is on <b>{{ plan }}</b>  " },
      { type: "button", text: " Open {{ firstName }} ", url: "https://app.example.test/{{ plan }}?a=1&b=2" },
      { type: "image", src: "https://cdn.example.test/{{ plan }}.png", alt: "{{ firstName }}" },
    ] satisfies EmailBlock[],
  };
  const names = ["Ann", `O'Brien & "Sons" <i>`, "lifecycle-field-0-7f3a9c"];
  const emails = [];
  for (const firstName of names) emails.push(await render({ body, variables: { firstName, plan: "Pro" } }, own));
  t.is(compiles, 1, "one compile for every recipient");
  t.true(emails[0]!.html.includes("Hello Ann") && emails[0]!.html.includes("<title>Welcome, Ann</title>"));
  t.true(emails[1]!.html.includes("Hello O&#39;Brien &amp; &#34;Sons&#34; &lt;i&gt;"), "merge values escaped in HTML fields");
  t.true(emails[1]!.html.includes("<title>Welcome, O&#39;Brien &amp; &quot;Sons&quot; &lt;i&gt;</title>"));
  t.regex(emails[1]!.html, />\s*Open O&#39;Brien &amp; &quot;Sons&quot; &lt;i&gt;\s*<\/a>/, "the button text escaped as a whole");
  t.true(hrefs(emails[1]!.html).includes("https://app.example.test/Pro?a=1&b=2"));
  t.true(emails[2]!.html.includes("Hello lifecycle-field-0-7f3a9c"), "a value that looks like a stand-in is written as it is");
  t.false(emails[0]!.html.includes("lifecycle-"), "no stand-in is left");
});

test("variablesOf lists the variables an email's merge tags read, from every field, without the service's links", (t) => {
  t.deepEqual(
    renderer.variablesOf({
      subject: "Order {{ order.id }} for {{ firstName | default: 'you' }}",
      previewText: "{% if coupon %}{{ coupon }}{% endif %}",
      body: {
        blocks: [
          { type: "text", content: "Hi {{ firstName }}, <a href='{{ unsubscribeUrl }}'>stop</a>" },
          { type: "columns", columns: [{ blocks: [{ type: "button", text: "Track", url: "https://shop.example.test/{{ trackingCode }}" }] }] },
          { type: "text", content: "{{ broken" },
        ],
      },
    }),
    ["coupon", "firstName", "order", "trackingCode"],
  );
  t.deepEqual(renderer.variablesOf({ subject: "Plain", previewText: null, body: { html: "<p>{{ viewInBrowserUrl }} {{ name }}</p>" } }), ["name"]);
});
