import { token } from "../shared/token.js";

/**
 * DNS lookups (sending-domain verification). A name without records of the type is `none`, not
 * an error; `error` is a lookup that could not be answered (timeout, server failure), which
 * says nothing about the records.
 */
export type DnsLookup =
  { readonly kind: "found"; readonly values: readonly string[] } | { readonly kind: "none" } | { readonly kind: "error"; readonly message: string };

export interface DnsResolver {
  /** Each TXT record as one string (its character-strings joined). */
  resolveTxt(name: string): Promise<DnsLookup>;
  /** The CNAME targets of the name, without a trailing dot. */
  resolveCname(name: string): Promise<DnsLookup>;
}
export const DnsResolver = token<DnsResolver>("lifecycle.DnsResolver");
