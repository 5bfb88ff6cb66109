/**
 * Tells opens and clicks made by software (image prefetchers, link scanners, bots) from the
 * ones a person made, so metrics can leave them out. Pure: the request and the send's times in,
 * a verdict out.
 */

export const MACHINE_REASONS = ["head_request", "known_proxy", "security_scanner", "bot", "too_fast", "all_links"] as const;
export type MachineReason = (typeof MACHINE_REASONS)[number];

export type EngagementKind = "open" | "click";

export interface EngagementRequest {
  readonly kind: EngagementKind;
  /** HTTP method: a HEAD only checks a link or an image, nobody looks at anything. */
  readonly method: string;
  readonly userAgent: string | null;
  /** The request came from a mail security gateway's network (the host matches the address). */
  readonly fromScannerNetwork: boolean;
  readonly at: Date;
  readonly sentAt: Date | null;
  readonly deliveredAt: Date | null;
}

export type Verdict = { readonly machine: false; readonly reason: null } | { readonly machine: true; readonly reason: MachineReason };

const HUMAN: Verdict = { machine: false, reason: null };
const machine = (reason: MachineReason): Verdict => ({ machine: true, reason });

/** Engagement this soon after the message was sent or delivered is a gateway scanning it, not its reader. */
export const TOO_FAST_MS = 3_000;
/** Distinct links of one send clicked within this window: a scanner following every link. */
export const LINK_BURST_WINDOW_MS = 2_000;
export const LINK_BURST_MIN_LINKS = 2;

interface AgentRule {
  readonly pattern: RegExp;
  readonly reason: "known_proxy" | "security_scanner" | "bot";
  /**
   * Reader-triggered image proxies (Gmail, Yahoo) fetch the pixel when a person opens the
   * message: their opens are human. Their "clicks" are not.
   */
  readonly humanOpens?: boolean;
}

/** User agents, first match wins. */
export const AGENT_RULES: readonly AgentRule[] = [
  { pattern: /GoogleImageProxy|ggpht\.com/i, reason: "known_proxy", humanOpens: true },
  { pattern: /YahooMailProxy/i, reason: "known_proxy", humanOpens: true },
  // Apple Mail Privacy Protection prefetches every image on delivery with a bare "Mozilla/5.0".
  { pattern: /^Mozilla\/5\.0$/, reason: "known_proxy" },
  { pattern: /Barracuda/i, reason: "security_scanner" },
  { pattern: /Mimecast/i, reason: "security_scanner" },
  { pattern: /Proofpoint|ppops/i, reason: "security_scanner" },
  { pattern: /Symantec|MessageLabs|Broadcom/i, reason: "security_scanner" },
  { pattern: /SafeLinks|Microsoft Defender|Microsoft Office Protection|MSOffice Protection/i, reason: "security_scanner" },
  {
    pattern: /Trend ?Micro|IronPort|Forcepoint|Websense|Sophos|FireEye|Trellix|Zscaler|Cloudmark|Fortinet|FortiMail|Hornetsecurity|SpamTitan/i,
    reason: "security_scanner",
  },
  // Crawlers, link previewers, headless browsers and HTTP libraries ("Cubot" is a phone brand).
  {
    pattern:
      /(?<!cu)bot\b|crawler|spider|slurp|headless|phantomjs|puppeteer|playwright|selenium|preview|facebookexternalhit|whatsapp|python-|aiohttp|curl\/|wget\/|go-http-client|java\/|okhttp|axios|node-fetch|undici|libwww|scrapy|httpclient/i,
    reason: "bot",
  },
];

/** Software rather than a person, by its user agent alone (no agent at all is software too). */
export function isMachineAgent(userAgent: string | null): boolean {
  const agent = userAgent?.trim() ?? "";
  return agent === "" || AGENT_RULES.some((rule) => rule.pattern.test(agent));
}

/** The verdict for one open or click, from what the request itself shows. */
export function classifyEngagement(request: EngagementRequest): Verdict {
  if (request.method.toUpperCase() === "HEAD") return machine("head_request");
  const agent = request.userAgent?.trim() ?? "";
  if (agent === "") return machine("bot");
  const rule = AGENT_RULES.find((candidate) => candidate.pattern.test(agent));
  if (rule && !(rule.humanOpens && request.kind === "open")) return machine(rule.reason);
  if (request.fromScannerNetwork) return machine("security_scanner");
  if (tooFast(request)) return machine("too_fast");
  return HUMAN;
}

/** Within TOO_FAST_MS of the send or of its delivery (or before them: skewed or raced). */
function tooFast({ at, sentAt, deliveredAt }: EngagementRequest): boolean {
  return [sentAt, deliveredAt].some((reference) => reference !== null && at.getTime() - reference.getTime() < TOO_FAST_MS);
}

export interface RecordedClick {
  readonly url: string;
  readonly at: Date;
}

/**
 * Whether the send's clicks in the window ending at `at` (the new click included) reach
 * LINK_BURST_MIN_LINKS distinct links: nobody opens every link of an email at once.
 */
export function isLinkBurst(clicks: readonly RecordedClick[], at: Date): boolean {
  const since = at.getTime() - LINK_BURST_WINDOW_MS;
  const links = new Set(clicks.filter((click) => click.at.getTime() >= since && click.at.getTime() <= at.getTime()).map((click) => click.url));
  return links.size >= LINK_BURST_MIN_LINKS;
}
