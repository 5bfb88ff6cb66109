import { createServer as createNetServer } from "node:net";
import { once } from "node:events";
import { createServer, Packet } from "dns2";

/** What the server answers per name (lower case): TXT records and a CNAME target. */
export interface ZoneEntry {
  txt?: string[];
  cname?: string;
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for a resolver's servers. */
  readonly address: string;
  /** Edit freely between lookups. */
  readonly zone: Map<string, ZoneEntry>;
  close(): Promise<void>;
}

/** A port free for TCP at the moment (UDP on the same number is almost always free too). */
async function freePort(): Promise<number> {
  const probe = createNetServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** TXT strings longer than 255 bytes go out as several character-strings, as real servers do. */
const chunks = (text: string): string[] => text.match(/.{1,255}/gs) ?? [""];

const NXDOMAIN = 3;

/** A real DNS server on loopback (UDP and TCP: long DKIM answers are truncated over UDP). */
export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, ZoneEntry>();
  const server = createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question?.name.toLowerCase() ?? "";
      const entry = zone.get(name);
      if (!entry) {
        (response.header as { rcode: number }).rcode = NXDOMAIN;
      } else if (question?.type === Packet.TYPE.TXT) {
        for (const text of entry.txt ?? [])
          response.answers.push({ name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data: chunks(text) } as never);
      } else if (question?.type === Packet.TYPE.CNAME && entry.cname) {
        response.answers.push({ name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 60, domain: entry.cname } as never);
      }
      void send(response);
    },
  });
  const port = await freePort();
  await server.listen({ udp: { port, address: "127.0.0.1" }, tcp: { port, address: "127.0.0.1" } });
  return { address: `127.0.0.1:${port}`, zone, close: () => server.close() };
}
