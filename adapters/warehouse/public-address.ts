import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Whether an address is a public unicast one: not loopback, private (10/8, 172.16/12,
 * 192.168/16, fc00::/7), link-local (169.254/16 and its cloud metadata address, fe80::/10),
 * carrier-grade NAT, multicast, reserved or unspecified. IPv4-mapped IPv6 (::ffff:127.0.0.1)
 * is judged as the IPv4 address it carries.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let address = ipaddr.parse(ip);
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  return address.range() === "unicast";
}

/** A host name resolved to an address the caller may connect to, or why not. */
export type ResolvedHost = { readonly ok: true; readonly address: string } | { readonly ok: false; readonly reason: string };

/**
 * Resolves the host once and returns the address to connect to: the caller connects to that
 * address (not the name again), so a second, different DNS answer cannot redirect it. Unless
 * private destinations are allowed, every address the name resolves to must be public.
 */
export async function resolveDestination(host: string, allowPrivate: boolean): Promise<ResolvedHost> {
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch (error) {
      return { ok: false, reason: `the host ${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? "lookup failed"})` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `the host ${host} has no address` };
  if (!allowPrivate) {
    const refused = addresses.find((address) => !isPublicAddress(address));
    if (refused) return { ok: false, reason: `the host ${host} resolves to ${refused}, a private or reserved address; warehouse hosts must be public` };
  }
  return { ok: true, address: addresses[0]! };
}
