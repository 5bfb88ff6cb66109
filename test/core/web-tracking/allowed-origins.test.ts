import test from "ava";
import { isOriginAllowed, normalizeOrigin, normalizeOrigins, requestOrigin } from "../../../core/web-tracking/allowed-origins.js";

const normalized: Array<[string, string]> = [
  ["example.com", "https://example.com"],
  ["  Shop.Example.COM/  ", "https://shop.example.com"],
  ["https://shop.example.com/cart/checkout?step=2#top", "https://shop.example.com"],
  ["HTTP://Example.com:80/", "http://example.com"],
  ["https://example.com:443", "https://example.com"],
  ["https://example.com:8443/", "https://example.com:8443"],
  ["example.com:8080", "https://example.com:8080"],
  ["http://localhost:3000", "http://localhost:3000"],
  ["http://127.0.0.1:5173/", "http://127.0.0.1:5173"],
  ["*.example.com", "https://*.example.com"],
  ["https://*.Example.com/", "https://*.example.com"],
  ["http://*.example.co.uk:8080/path", "http://*.example.co.uk:8080"],
  ["bücher.example", "https://xn--bcher-kva.example"],
];

for (const [entry, expected] of normalized) {
  test(`origin ${JSON.stringify(entry)} is stored as ${expected}`, (t) => {
    t.is(normalizeOrigin(entry), expected);
  });
}

const refused = [
  "",
  "   ",
  "ftp://example.com",
  "javascript:alert(1)",
  "https://user:pass@example.com",
  "exa mple.com",
  "https://",
  "*",
  "*.com",
  "https://*.com",
  "*.*.example.com",
  "shop.*.example.com",
  "*.127.0.0.1",
  "-bad-.example.com",
  "https://example.com:99999",
  "https://wildcard-label-0.example.com",
];

for (const entry of refused) {
  test(`origin ${JSON.stringify(entry)} is refused`, (t) => {
    t.is(normalizeOrigin(entry), null);
  });
}

test("a list is normalized in order without repeats; one bad entry or more than 50 refuse it all", (t) => {
  t.deepEqual(normalizeOrigins(["example.com", "https://EXAMPLE.com/", "*.example.com"]), {
    _tag: "Right",
    right: ["https://example.com", "https://*.example.com"],
  });
  const bad = normalizeOrigins(["example.com", "not an origin"]);
  t.is(bad._tag, "Left");
  t.like(bad._tag === "Left" ? bad.left : {}, { _tag: "BadRequest", bare: true });
  t.regex(bad._tag === "Left" ? bad.left.message : "", /allowedOrigins\.1/);
  const many = normalizeOrigins(Array.from({ length: 51 }, (_, i) => `site${i}.example.com`));
  t.regex(many._tag === "Left" ? many.left.message : "", /at most 50/);
  t.is(normalizeOrigins(Array.from({ length: 50 }, (_, i) => `site${i}.example.com`))._tag, "Right");
});

test("a wildcard admits subdomains at any depth, never the apex, another scheme or another port", (t) => {
  const allowed = ["https://*.example.com", "http://localhost:3000"];
  t.true(isOriginAllowed("https://shop.example.com", allowed));
  t.true(isOriginAllowed("https://a.b.c.example.com", allowed));
  t.false(isOriginAllowed("https://example.com", allowed));
  t.false(isOriginAllowed("http://shop.example.com", allowed));
  t.false(isOriginAllowed("https://shop.example.com:8443", allowed));
  t.false(isOriginAllowed("https://shopexample.com", allowed));
  t.false(isOriginAllowed("https://example.com.evil.test", allowed));
  t.true(isOriginAllowed("http://localhost:3000", allowed));
  t.false(isOriginAllowed("http://localhost:3001", allowed));
  t.false(isOriginAllowed(null, allowed), "a request from no page is refused by a restricted key");
  t.true(isOriginAllowed(null, []), "an unrestricted key admits anyone");
  t.true(isOriginAllowed("https://anything.test", []));
});

test("the Origin header is read as scheme, lower-cased host and non-default port; null and junk are no origin", (t) => {
  t.is(requestOrigin("https://Shop.Example.com:443"), "https://shop.example.com");
  t.is(requestOrigin("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
  t.is(requestOrigin("null"), null);
  t.is(requestOrigin(undefined), null);
  t.is(requestOrigin("file:///tmp/page.html"), null);
  t.is(requestOrigin("not a url"), null);
});
