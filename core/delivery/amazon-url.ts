/**
 * True when the URL is one SNS itself would give: https on an amazonaws.com host, default port.
 * The server visits a subscription's SubscribeURL, so no other URL may be followed.
 */
export function isAmazonUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" && (parsed.hostname.endsWith(".amazonaws.com") || parsed.hostname.endsWith(".amazonaws.com.cn")) && parsed.port === "";
  } catch {
    return false;
  }
}
