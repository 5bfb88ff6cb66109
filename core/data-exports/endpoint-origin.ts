import { isPublicHost } from "../shared/public-host.js";

/**
 * Why `endpoint` cannot be a data export's S3-compatible endpoint, or null when it can.
 *
 * It must be an origin (`https://host[:port]`: no credentials, path, query or fragment). Unless
 * private destinations are allowed (local testing), it must be https and a literal IP address must
 * be public. Host names are checked again when connecting, on the address actually used, so this
 * only turns away what is wrong on its face.
 */
export function endpointOriginProblem(endpoint: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "endpoint must be a URL such as https://s3.example.com";
  }
  const schemes = allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) return "endpoint must be an https:// URL";
  if (url.username !== "" || url.password !== "") return "endpoint must not contain credentials";
  // `new URL` turns "" into "/", so a trailing slash alone is still an origin.
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || /[?#]/.test(endpoint)) {
    return "endpoint must be an origin (scheme, host and optional port) without a path, query or fragment";
  }
  if (!allowPrivate && !isPublicHost(url.hostname)) return "endpoint must resolve to a public address";
  return null;
}
