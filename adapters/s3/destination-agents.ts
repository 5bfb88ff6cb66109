import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { LookupFunction } from "node:net";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";

export interface DestinationAgentOptions {
  /** ALLOW_PRIVATE_DESTINATIONS: loopback and private addresses are reachable (local testing). */
  readonly allowPrivate: boolean;
  /** Resolves host names; the system resolver when omitted. Its answers are checked all the same. */
  readonly lookup?: LookupFunction;
}

export interface DestinationAgents {
  readonly httpAgent: HttpAgent;
  readonly httpsAgent: HttpsAgent;
}

/** Prefix of the error request-filtering-agent raises for a refused address. */
export const REFUSED_ADDRESS = /^DNS lookup .* is not allowed/;

/**
 * HTTP agents for a customer's destination. Unless private destinations are allowed, every socket
 * is checked when it connects, on the address it actually connects to (after DNS resolution, for
 * every address a name resolves to): anything but public unicast is refused (loopback, RFC 1918,
 * link-local incl. 169.254.169.254, CGNAT, unique-local, IPv4-mapped, 0.0.0.0, reserved ranges; the
 * ranges come from ipaddr.js). DNS rebinding gains nothing because the check runs on the lookup
 * the socket uses, and a redirect would open a new socket through the same check.
 */
export function destinationAgents(options: DestinationAgentOptions): DestinationAgents {
  const common = { keepAlive: true, ...(options.lookup ? { lookup: options.lookup } : {}) };
  if (options.allowPrivate) return { httpAgent: new HttpAgent(common), httpsAgent: new HttpsAgent(common) };
  const filter = { allowPrivateIPAddress: false, allowMetaIPAddress: false };
  return {
    httpAgent: new RequestFilteringHttpAgent({ ...common, ...filter }),
    httpsAgent: new RequestFilteringHttpsAgent({ ...common, ...filter }),
  };
}
