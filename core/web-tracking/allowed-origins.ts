import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { MAX_ALLOWED_ORIGINS } from "./model.js";

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const WILDCARD = "*.";
// Stands in for `*` while the URL parser reads the rest of the entry.
const PLACEHOLDER = "wildcard-label-0";

const isIpHost = (hostname: string): boolean => hostname.startsWith("[") || /^\d+(\.\d+){3}$/.test(hostname);

/**
 * One entry of `allowedOrigins` as stored, or null when it is not an origin (spec, Web tracking
 * keys): a bare domain is read as https; lower case; path, query, fragment and trailing slashes
 * removed; default ports dropped. A leading `*.` (after the scheme, if any) keeps its place and
 * must stand before at least two labels of a domain name, so `*.com` or `*.10.0.0.1` are refused.
 */
export function normalizeOrigin(entry: string): string | null {
  const text = entry.trim();
  if (text === "" || /[\s\\]/.test(text)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  const schemeEnd = withScheme.indexOf("://") + 3;
  const wildcard = withScheme.startsWith(WILDCARD, schemeEnd);
  const parsable = wildcard ? `${withScheme.slice(0, schemeEnd)}${PLACEHOLDER}.${withScheme.slice(schemeEnd + WILDCARD.length)}` : withScheme;
  let url: URL;
  try {
    url = new URL(parsable);
  } catch {
    return null;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username !== "" || url.password !== "") return null;
  const hostname = url.hostname.replace(/\.$/, "");
  if (!isIpHost(hostname)) {
    const labels = hostname.split(".");
    if (!labels.every((label) => LABEL.test(label))) return null;
    if (wildcard && (labels[0] !== PLACEHOLDER || labels.length < 3 || labels.slice(1).includes(PLACEHOLDER))) return null;
    if (!wildcard && labels.includes(PLACEHOLDER)) return null;
  } else if (wildcard) {
    return null;
  }
  const host = `${hostname}${url.port ? `:${url.port}` : ""}`;
  return `${url.protocol}//${wildcard ? `*${host.slice(PLACEHOLDER.length)}` : host}`;
}

/**
 * The whole list as stored, in the order given without repeats, or a 400 when any entry is not an
 * origin or there are too many: then nothing is saved (spec: the whole request is rejected).
 */
export function normalizeOrigins(entries: readonly string[]): Result<string[]> {
  if (entries.length > MAX_ALLOWED_ORIGINS) {
    return fail(badRequest(`allowedOrigins may hold at most ${MAX_ALLOWED_ORIGINS} entries`, { bare: true }));
  }
  const normalized: string[] = [];
  for (const [index, entry] of entries.entries()) {
    const origin = normalizeOrigin(entry);
    if (origin === null) {
      return fail(
        badRequest(
          `Invalid origin at allowedOrigins.${index}: ${JSON.stringify(entry.slice(0, 100))} (expected a domain such as example.com, an origin such as https://shop.example.com, or *.example.com)`,
          { bare: true },
        ),
      );
    }
    if (!normalized.includes(origin)) normalized.push(origin);
  }
  return ok(normalized);
}

/** The `Origin` header's value as compared (scheme, lower-cased host, port only when not the default), or null when it is none. */
export function requestOrigin(header: string | undefined): string | null {
  if (!header || header === "null") return null;
  try {
    const url = new URL(header);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * Whether a page at `origin` may send events with a key holding `allowed`: any page when the list
 * is empty; else an exact entry, or a `*.` entry of the same scheme and port whose domain the
 * page's host is a subdomain of, at any depth (never the apex itself).
 */
export function isOriginAllowed(origin: string | null, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  if (origin === null) return false;
  if (allowed.includes(origin)) return true;
  const url = new URL(origin);
  for (const entry of allowed) {
    const star = entry.indexOf("//*.");
    if (star < 0) continue;
    const pattern = new URL(entry.replace("//*.", `//${PLACEHOLDER}.`));
    if (pattern.protocol !== url.protocol || pattern.port !== url.port) continue;
    const apex = pattern.hostname.slice(PLACEHOLDER.length + 1);
    if (url.hostname.endsWith(`.${apex}`)) return true;
  }
  return false;
}
