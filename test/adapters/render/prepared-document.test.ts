import test from "ava";
import fc from "fast-check";
import { HtmlDocument } from "../../../adapters/render/html-document.js";
import { MjmlEmailRenderer } from "../../../adapters/render/mjml-email-renderer.js";
import { PreparedDocument } from "../../../adapters/render/prepared-document.js";
import { resolveEmailTheme } from "../../../core/company/email-theme.js";
import type { EmailBlock } from "../../../core/emails/blocks.js";
import type { RenderEmailRequest, RenderedEmail } from "../../../core/emails/email-renderer.js";

/**
 * A block email's recipients get copies filled in at places found once (PreparedDocument). The
 * reference is the whole-copy way: fill the stand-ins, parse the whole document, edit it, convert
 * it to text. Every generated email and recipient must come out byte for byte the same.
 */

const prepared = new MjmlEmailRenderer();
const whole = new MjmlEmailRenderer(undefined, { wholeCopies: true });

const UNSUBSCRIBE = "https://mail.example.test/u/tok?a=1&b=2";
const track = (url: string): string => `https://t.example.test/c?u=${encodeURIComponent(url)}`;

/** Markup an author writes, with a merge value in it. */
const AUTHORED = [
  "Hello {{ name }}",
  "<p>First {{ name }}</p><p>Second</p>",
  "Tom &amp; {{ name }}",
  "<b>bold</b> {{ name }}",
  '<a href="https://x.example.test/a">read</a>',
  '<a href="https://x.example.test/{{ name }}">personal</a>',
  '<a href="https://x.example.test/b">https://x.example.test/b</a>',
  '<a href="{{ url }}">{{ url }}</a>',
  '<a href="mailto:help@example.test">mail us</a>',
  '<a href="#top">top</a>',
  '<a href="javascript:alert(1)">bad</a>',
  '<a href="{{ url }}">from a variable</a>',
  "line one<br>line {{ name }}",
  "<ul><li>a</li><li>{{ name }}</li></ul>",
  "<p>unclosed {{ name }}",
  "</div>stray end",
  "<!-- note -->after",
  "<style>p{color:red}</style>styled",
  '<a href="https://x.example.test/c">unclosed link',
  "",
  "   ",
  "<h4>Small {{ name }}</h4>",
  'x <img src="https://i.example.test/a.png" alt="pic"> y',
  "<table><tr><td>cell {{ name }}</td></tr></table>",
  "a\n\n   b {{ name }}",
  "<span>&lt;tag&gt;</span>",
  "ü ∑ 😀 {{ name }}",
  "{{ unsubscribeUrl }}",
  '<a href="{{ unsubscribeUrl }}">leave</a>',
  "<blockquote>quoted {{ name }}</blockquote>",
  "<ol><li>one</li><li>two<br>lines</li></ol>",
];

/** Values a recipient's attributes may hold. */
const VALUES = [
  "Ann",
  "",
  "  spaced  out  ",
  "<script>x</script>",
  "quote \" and '",
  "a & b",
  "lifecycle-field-0-7f3a9c",
  "https://evil.example.test/x",
  "javascript:alert(1)",
  "mailto:a@example.test",
  "#frag",
  "line\nbreak",
  "ü😀",
];

const authored = fc.constantFrom(...AUTHORED);
const url = fc.constantFrom(
  "https://shop.example.test/x",
  "https://shop.example.test/?a=1&b={{ name }}",
  "mailto:a@example.test",
  "#",
  "{{ url }}",
  " https://x.example.test/sp ",
  "javascript:alert(1)",
);
const plain = fc.constantFrom("Buy now", "Buy {{ name }}", "https://shop.example.test/x", "{{ url }}", "<b>x</b>");

const contentBlock: fc.Arbitrary<EmailBlock> = fc.oneof(
  authored.map((content) => ({ type: "text" as const, content })),
  authored.map((content) => ({ type: "html" as const, content })),
  fc.tuple(authored, fc.constantFrom(1, 2, 3)).map(([content, level]) => ({ type: "heading" as const, content, level })),
  fc.array(authored, { minLength: 1, maxLength: 3 }).map((items) => ({ type: "list" as const, items: items.map((content) => ({ content })) })),
  fc.tuple(plain, url).map(([text, href]) => ({ type: "button" as const, text, url: href })),
  fc.tuple(url, plain, fc.option(url, { nil: undefined })).map(([src, alt, href]) => ({ type: "image" as const, src, alt, ...(href ? { href } : {}) })),
  fc.constant({ type: "divider" as const }),
);
const block: fc.Arbitrary<EmailBlock> = fc.oneof(
  { weight: 6, arbitrary: contentBlock },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.array(contentBlock, { minLength: 1, maxLength: 2 }), { minLength: 2, maxLength: 2 })
      .map((columns) => ({ type: "columns" as const, columns: columns.map((blocks) => ({ blocks })) }) as EmailBlock),
  },
  { weight: 1, arbitrary: authored.map((content) => ({ type: "footer" as const, content, showUnsubscribe: false })) },
);

function request(blocks: EmailBlock[], variables: Record<string, string>, tracking: boolean, view: boolean): RenderEmailRequest {
  return {
    theme: resolveEmailTheme(null, "#C2410C"),
    companyName: "Acme & Sons",
    subject: "Hi {{ name }}",
    previewText: "Preview {{ name }}",
    body: { blocks },
    footer: null,
    variables,
    links: {
      unsubscribeUrl: UNSUBSCRIBE,
      ...(view ? { viewInBrowserUrl: "https://mail.example.test/v/tok" } : {}),
      ...(tracking ? { rewriteLink: track, openPixelUrl: "https://t.example.test/o.gif" } : {}),
    },
  };
}

async function rendered(renderer: MjmlEmailRenderer, from: RenderEmailRequest): Promise<RenderedEmail> {
  const result = await renderer.render(from);
  if (result._tag === "Left") throw new Error(result.left.message);
  return result.right;
}

test.serial("every recipient's filled copy is the whole-copy rendering, HTML and text, byte for byte", async (t) => {
  // Many generated recipients must be filled in, or the comparison would prove little (the generator is hostile: most emails hold some markup that must be parsed whole).
  // A run fills 20-30% of them; the bound leaves room for an unlucky draw (a CI run filled 19.8%).
  const fill = PreparedDocument.prototype.fill;
  const outcomes = { filled: 0, declined: 0 };
  PreparedDocument.prototype.fill = function (...args) {
    const filled = fill.apply(this, args);
    outcomes[filled ? "filled" : "declined"]++;
    return filled;
  };
  t.teardown(() => {
    PreparedDocument.prototype.fill = fill;
  });
  await fc.assert(
    fc.asyncProperty(
      fc.array(block, { minLength: 1, maxLength: 5 }),
      fc.array(fc.record({ name: fc.constantFrom(...VALUES), url: fc.constantFrom(...VALUES) }), { minLength: 1, maxLength: 3 }),
      fc.boolean(),
      fc.boolean(),
      async (blocks, recipients, tracking, view) => {
        for (const variables of recipients) {
          const expected = await rendered(whole, request(blocks, variables, tracking, view));
          const actual = await rendered(prepared, request(blocks, variables, tracking, view));
          t.is(actual.html, expected.html);
          t.is(actual.text, expected.text);
        }
      },
    ),
    { numRuns: Number(process.env.PREPARED_RUNS ?? 150) },
  );
  t.log(outcomes);
  t.true(outcomes.filled >= (outcomes.filled + outcomes.declined) / 10, `filled ${outcomes.filled}, declined ${outcomes.declined}`);
});

test.serial("a campaign's recipients are filled in, not parsed whole: one parse per email however many recipients", async (t) => {
  const renderer = new MjmlEmailRenderer();
  const blocks: EmailBlock[] = [
    { type: "heading", content: "Hello {{ name }}" },
    { type: "text", content: '<p>Your plan: <b>{{ plan }}</b>. <a href="https://example.test/account?u={{ name }}">Your account</a></p><p>Thanks</p>' },
    { type: "list", items: [{ content: "One {{ plan }}" }, { content: "Two<br>lines" }] },
    { type: "button", text: "Upgrade {{ name }}", url: "https://example.test/upgrade?plan={{ plan }}" },
  ];
  const parse = HtmlDocument.parse.bind(HtmlDocument);
  let parses = 0;
  HtmlDocument.parse = (html, options) => {
    parses++;
    return parse(html, options);
  };
  try {
    const names = ["Ann", "Bob & Co", "Chloé", "<Dan>", "Eve"];
    const emails = [];
    for (const name of names) emails.push(await rendered(renderer, request(blocks, { name, plan: `Pro ${name}` }, true, false)));
    t.is(parses, 1);
    for (const [index, email] of emails.entries()) {
      const expected = await rendered(whole, request(blocks, { name: names[index]!, plan: `Pro ${names[index]}` }, true, false));
      t.is(email.html, expected.html);
      t.is(email.text, expected.text);
    }
    t.true(emails[1]!.html.includes("Hello Bob &amp; Co"));
    t.regex(emails[3]!.text, /Your plan: Pro <Dan>\. Your account \[https:\/\/t\.example\.test\/c\?u=https%3A%2F%2Fexample\.test%2Faccount%3Fu%3D%3CDan%3E\]/);
  } finally {
    HtmlDocument.parse = parse;
  }
});
