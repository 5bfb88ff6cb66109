import { promises as dns } from "node:dns";
import type { DnsLookup, DnsResolver } from "../../core/ports/dns-resolver.js";

/** Answers that mean "no such record", as opposed to a lookup that failed. */
const NO_RECORDS: ReadonlySet<string> = new Set([dns.NODATA, dns.NOTFOUND]);

export interface NodeDnsResolverOptions {
  /** `ip` or `ip:port` of the servers to ask; the system's when omitted (tests pass a loopback server). */
  readonly servers?: readonly string[];
  readonly timeoutMs?: number;
  readonly tries?: number;
}

/** DnsResolver over node:dns (c-ares), each lookup asked afresh (no cache: a fix shows at once). */
export class NodeDnsResolver implements DnsResolver {
  private readonly resolver: dns.Resolver;

  constructor(options: NodeDnsResolverOptions = {}) {
    this.resolver = new dns.Resolver({ timeout: options.timeoutMs ?? 3000, tries: options.tries ?? 2 });
    if (options.servers?.length) this.resolver.setServers([...options.servers]);
  }

  resolveTxt(name: string): Promise<DnsLookup> {
    // A TXT record longer than 255 bytes arrives as several character-strings: one record.
    return this.lookup(async () => (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join("")));
  }

  resolveCname(name: string): Promise<DnsLookup> {
    return this.lookup(async () => (await this.resolver.resolveCname(name)).map((target) => target.replace(/\.$/, "").toLowerCase()));
  }

  private async lookup(query: () => Promise<string[]>): Promise<DnsLookup> {
    try {
      const values = await query();
      return values.length > 0 ? { kind: "found", values } : { kind: "none" };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code && NO_RECORDS.has(code)) return { kind: "none" };
      return { kind: "error", message: code ?? (error as Error).message };
    }
  }
}
