import test from "ava";
import {
  classifyEngagement,
  isLinkBurst,
  LINK_BURST_WINDOW_MS,
  TOO_FAST_MS,
  type EngagementKind,
  type MachineReason,
} from "../../../core/tracking/machine-engagement.js";
import { isScannerAddress } from "../../../adapters/net/scanner-networks.js";

const SENT = new Date("2026-11-22T10:00:00.000Z");
const LATER = new Date(SENT.getTime() + 3_600_000);
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE_MAIL = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";
const GMAIL_PROXY = "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)";
const YAHOO_PROXY = "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html";
const CUBOT_PHONE = "Mozilla/5.0 (Linux; Android 10; CUBOT X19) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36";

interface Case {
  readonly title: string;
  readonly kind?: EngagementKind;
  readonly method?: string;
  readonly userAgent?: string | null;
  readonly ip?: string | null;
  readonly at?: Date;
  readonly sentAt?: Date | null;
  readonly deliveredAt?: Date | null;
  readonly expected: MachineReason | null;
}

const cases: readonly Case[] = [
  { title: "a browser an hour after the send is a person", userAgent: CHROME, expected: null },
  { title: "a mail app opening is a person", userAgent: IPHONE_MAIL, expected: null },
  { title: "a click from a person", kind: "click", userAgent: CHROME, expected: null },
  { title: "a HEAD request checks, nobody looks", method: "HEAD", userAgent: CHROME, expected: "head_request" },
  { title: "a HEAD click", kind: "click", method: "head", userAgent: CHROME, expected: "head_request" },
  { title: "no user agent at all", userAgent: null, expected: "bot" },
  { title: "a blank user agent", userAgent: "  ", expected: "bot" },
  { title: "Apple Mail Privacy Protection prefetch", userAgent: "Mozilla/5.0", expected: "known_proxy" },
  { title: "Gmail's image proxy fetches when the reader opens", userAgent: GMAIL_PROXY, expected: null },
  { title: "Yahoo's image proxy fetches when the reader opens", userAgent: YAHOO_PROXY, expected: null },
  { title: "but an image proxy does not click", kind: "click", userAgent: GMAIL_PROXY, expected: "known_proxy" },
  { title: "Gmail's proxy within seconds of the send is a prefetch", userAgent: GMAIL_PROXY, at: new Date(SENT.getTime() + 1_000), expected: "too_fast" },
  { title: "Barracuda", kind: "click", userAgent: "Barracuda Sentinel (EE)", expected: "security_scanner" },
  { title: "Mimecast", kind: "click", userAgent: "Mozilla/5.0 Mimecast URL Protect", expected: "security_scanner" },
  { title: "Proofpoint", kind: "click", userAgent: "Proofpoint URL Defense", expected: "security_scanner" },
  { title: "Symantec", kind: "click", userAgent: "Symantec Email Security.cloud link scanner", expected: "security_scanner" },
  { title: "Microsoft Safe Links by name", kind: "click", userAgent: "Microsoft SafeLinks", expected: "security_scanner" },
  { title: "a crawler", userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", expected: "bot" },
  {
    title: "a headless browser",
    kind: "click",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
    expected: "bot",
  },
  { title: "an HTTP library", kind: "click", userAgent: "python-requests/2.31.0", expected: "bot" },
  { title: "curl", kind: "click", userAgent: "curl/8.5.0", expected: "bot" },
  { title: "a link previewer", kind: "click", userAgent: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", expected: "bot" },
  { title: "a Cubot phone is not a bot", userAgent: CUBOT_PHONE, expected: null },
  { title: "a browser user agent from Microsoft's mail protection range", kind: "click", userAgent: CHROME, ip: "40.93.12.7", expected: "security_scanner" },
  { title: "an IPv4-mapped address in Barracuda's range", kind: "click", userAgent: CHROME, ip: "::ffff:209.222.82.10", expected: "security_scanner" },
  { title: "an IPv6 address in Microsoft's range", kind: "click", userAgent: CHROME, ip: "2a01:111:f403:c000::1", expected: "security_scanner" },
  { title: "an address outside every range", kind: "click", userAgent: CHROME, ip: "203.0.113.9", expected: null },
  { title: "a click within the threshold of the send", kind: "click", userAgent: CHROME, at: new Date(SENT.getTime() + TOO_FAST_MS - 1), expected: "too_fast" },
  { title: "a click at the threshold is a person's", kind: "click", userAgent: CHROME, at: new Date(SENT.getTime() + TOO_FAST_MS), expected: null },
  { title: "an open before the send was recorded raced it", userAgent: CHROME, at: new Date(SENT.getTime() - 500), expected: "too_fast" },
  { title: "an open right after delivery", userAgent: CHROME, deliveredAt: new Date(LATER.getTime() - 1_000), expected: "too_fast" },
  { title: "no send time known: timing says nothing", userAgent: CHROME, sentAt: null, at: SENT, expected: null },
  { title: "HEAD wins over a scanner user agent", method: "HEAD", userAgent: "Barracuda", expected: "head_request" },
];

for (const c of cases) {
  test(`classify: ${c.title}`, (t) => {
    const verdict = classifyEngagement({
      kind: c.kind ?? "open",
      method: c.method ?? "GET",
      userAgent: c.userAgent === undefined ? CHROME : c.userAgent,
      fromScannerNetwork: isScannerAddress(c.ip ?? "198.51.100.20"),
      at: c.at ?? LATER,
      sentAt: c.sentAt === undefined ? SENT : c.sentAt,
      deliveredAt: c.deliveredAt ?? null,
    });
    t.deepEqual(verdict, c.expected === null ? { machine: false, reason: null } : { machine: true, reason: c.expected });
  });
}

test("scanner addresses: ranges match by prefix, garbage matches nothing", (t) => {
  t.true(isScannerAddress("104.47.0.1"));
  t.true(isScannerAddress("104.47.127.255"));
  t.false(isScannerAddress("104.47.128.0"), "just past the /17");
  t.true(isScannerAddress("148.163.150.3"), "Proofpoint");
  t.true(isScannerAddress("205.139.110.40"), "Mimecast");
  t.false(isScannerAddress("127.0.0.1"));
  t.false(isScannerAddress("::1"));
  t.false(isScannerAddress("not an address"));
  t.false(isScannerAddress(""));
});

const click = (url: string, msAfter: number) => ({ url, at: new Date(LATER.getTime() + msAfter) });

const bursts: ReadonlyArray<{ title: string; clicks: ReturnType<typeof click>[]; atMs: number; expected: boolean }> = [
  { title: "one click", clicks: [click("https://a.example/", 0)], atMs: 0, expected: false },
  { title: "the same link twice at once", clicks: [click("https://a.example/", 0), click("https://a.example/", 100)], atMs: 100, expected: false },
  { title: "two links within the window", clicks: [click("https://a.example/", 0), click("https://b.example/", 900)], atMs: 900, expected: true },
  {
    title: "every link at once",
    clicks: [click("https://a.example/", 0), click("https://b.example/", 5), click("https://c.example/", 9)],
    atMs: 9,
    expected: true,
  },
  {
    title: "two links further apart than the window",
    clicks: [click("https://a.example/", 0), click("https://b.example/", LINK_BURST_WINDOW_MS + 1)],
    atMs: LINK_BURST_WINDOW_MS + 1,
    expected: false,
  },
  {
    title: "a later click does not count for an earlier one",
    clicks: [click("https://a.example/", 0), click("https://b.example/", 500)],
    atMs: 0,
    expected: false,
  },
];

for (const b of bursts) {
  test(`link burst: ${b.title}`, (t) => {
    t.is(isLinkBurst(b.clicks, new Date(LATER.getTime() + b.atMs)), b.expected);
  });
}
