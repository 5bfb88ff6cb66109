import ipaddr from "ipaddr.js";

/**
 * Whether a URL's host may be a public destination on its face: `localhost` and literal addresses
 * that are not plain unicast (private, loopback, link-local, CGNAT, reserved, IPv4-mapped) are not.
 * Host names pass here and are checked again when connecting, on the address actually used.
 * `hostname` as `new URL` gives it: IPv4 normalised (127.1, 0x7f.1 -> 127.0.0.1), IPv6 in brackets.
 */
export function isPublicHost(hostname: string): boolean {
  const host = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname.replace(/\.$/, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return false;
  if (!ipaddr.isValid(host)) return true;
  return ipaddr.parse(host).range() === "unicast";
}
