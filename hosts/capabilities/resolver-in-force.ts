import type { ResolutionContext } from "inversify";
import { DnsResolver } from "../../core/ports/dns-resolver.js";

/**
 * The DnsResolver bound at each lookup, not at resolution: a use case is given to the routes
 * once, when they are mounted, and DnsResolver may be rebound after that (tests point it at a DNS server on loopback).
 */
export const resolverInForce = (container: ResolutionContext): DnsResolver => ({
  resolveTxt: (name) => container.get<DnsResolver>(DnsResolver).resolveTxt(name),
  resolveCname: (name) => container.get<DnsResolver>(DnsResolver).resolveCname(name),
});
