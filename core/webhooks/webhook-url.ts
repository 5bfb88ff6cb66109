import { isPublicHost } from "../shared/public-host.js";

/**
 * Why `raw` cannot be a webhook's URL, or null when it can. It must be an absolute https URL
 * without credentials, of a public host; plain http and private or loopback hosts only when
 * private destinations are allowed (local testing). Host names are checked again by the
 * destination client on every connection, on the address it actually uses.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "url must be an absolute URL such as https://example.com/webhooks";
  }
  const schemes = allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) return "url must be an https:// URL";
  if (url.username !== "" || url.password !== "") return "url must not contain credentials";
  if (url.hash !== "") return "url must not contain a fragment";
  if (!allowPrivate && !isPublicHost(url.hostname)) return "url must be of a public host: private, loopback and reserved addresses are not called";
  return null;
}
