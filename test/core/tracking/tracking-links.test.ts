import test from "ava";
import { HmacTokenSigner } from "../../../adapters/crypto/hmac-token-signer.js";
import { TrackingLinks } from "../../../core/tracking/tracking-links.js";
import { TrackingTokens } from "../../../core/tracking/tracking-tokens.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const SEND = "send_01JD8Z3Q4W5E6R7T8Y9U0I1O2P";
const tokens = new TrackingTokens(new HmacTokenSigner(Buffer.alloc(32, 7)));
const links = new TrackingLinks(tokens, "https://mail.example.com/");

const tokenOf = (url: string, pattern: RegExp): string => {
  const match = pattern.exec(url);
  if (!match?.[1]) throw new Error(`no token in ${url}`);
  return match[1];
};

test("a send's links: pixel, rewritten http(s) links, unsubscribe page, on the public origin", (t) => {
  const send = links.forSend(SEND);
  const pixel = tokenOf(send.openPixelUrl, /^https:\/\/mail\.example\.com\/t\/o\/([\w-]+\.[\w-]+)\.gif$/);
  t.deepEqual(tokens.readOpen(pixel, NOW), { sendId: SEND });

  const click = tokenOf(send.rewriteLink("https://shop.example/sale?x=1&y=2#top"), /^https:\/\/mail\.example\.com\/t\/c\/([\w-]+\.[\w-]+)$/);
  t.deepEqual(tokens.readClick(click, NOW), { sendId: SEND, url: "https://shop.example/sale?x=1&y=2#top" });
  t.regex(send.rewriteLink("http://plain.example/"), /\/t\/c\//);

  const unsubscribe = tokenOf(send.unsubscribeUrl, /^https:\/\/mail\.example\.com\/u\/([\w-]+\.[\w-]+)$/);
  t.deepEqual(tokens.readUnsubscribe(unsubscribe, NOW), { sendId: SEND });
  t.true(click.length < 200, `short enough: ${click.length}`);
  t.true(pixel.length < 120, `short enough: ${pixel.length}`);
});

test("links that are not web pages, and the unsubscribe link itself, are left as they are", (t) => {
  const send = links.forSend(SEND);
  for (const url of [
    "mailto:help@example.com",
    "tel:+33123456789",
    "#section",
    "javascript:alert(1)",
    "data:text/html,hi",
    "{{ unsubscribe_url }}",
    "/relative",
  ]) {
    t.is(send.rewriteLink(url), url, url);
  }
  t.is(send.rewriteLink(send.unsubscribeUrl), send.unsubscribeUrl);
  t.is(links.clickUrl(SEND, "javascript:alert(1)"), null);
  t.is(tokens.click(SEND, "ftp://files.example/"), null);
});

test("a token is good for its own purpose only, and not once changed", (t) => {
  const send = links.forSend(SEND);
  const pixel = tokenOf(send.openPixelUrl, /\/t\/o\/(.+)\.gif$/);
  const unsubscribe = tokenOf(send.unsubscribeUrl, /\/u\/(.+)$/);
  const click = tokenOf(send.rewriteLink("https://shop.example/"), /\/t\/c\/(.+)$/);
  t.is(tokens.readUnsubscribe(pixel, NOW), null, "a pixel token does not unsubscribe");
  t.is(tokens.readClick(pixel, NOW), null);
  t.is(tokens.readOpen(unsubscribe, NOW), null);
  t.is(tokens.readOpen(click, NOW), null);

  // Another destination (or send) in the payload, same signature: refused.
  const [, mac] = click.split(".");
  const forged = `${Buffer.from(JSON.stringify({ s: SEND, u: "https://evil.example/" })).toString("base64url")}.${mac}`;
  t.is(tokens.readClick(forged, NOW), null);
  const otherSigner = new TrackingTokens(new HmacTokenSigner(Buffer.alloc(32, 8)));
  t.is(tokens.readClick(otherSigner.click(SEND, "https://evil.example/")!, NOW), null, "another server's key");
  t.is(tokens.readOpen("garbage", NOW), null);
  t.is(tokens.readOpen("", NOW), null);
});
