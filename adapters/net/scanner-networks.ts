import { BlockList, isIP } from "node:net";

/**
 * Addresses of the mail security gateways that follow links before the reader sees the message
 * (their published outbound ranges, as listed in their SPF records and documentation):
 * - Microsoft Exchange Online Protection / Defender Safe Links: 40.92.0.0/15, 40.107.0.0/16,
 *   52.100.0.0/15, 52.102.0.0/16, 104.47.0.0/17, 2a01:111:f400::/48, 2a01:111:f403::/48
 * - Barracuda Email Security Service: 64.235.144.0/20, 209.222.80.0/21
 * - Mimecast: 205.139.110.0/24, 207.211.30.0/24, 91.220.42.0/24, 146.101.78.0/24
 * - Proofpoint: 148.163.128.0/19, 67.231.144.0/20
 * - Symantec Email Security (MessageLabs): 216.82.240.0/20, 67.219.240.0/20, 85.158.136.0/21,
 *   193.109.254.0/23, 194.106.220.0/23, 195.245.230.0/23
 */
export const SCANNER_RANGES: readonly string[] = [
  "40.92.0.0/15",
  "40.107.0.0/16",
  "52.100.0.0/15",
  "52.102.0.0/16",
  "104.47.0.0/17",
  "2a01:111:f400::/48",
  "2a01:111:f403::/48",
  "64.235.144.0/20",
  "209.222.80.0/21",
  "205.139.110.0/24",
  "207.211.30.0/24",
  "91.220.42.0/24",
  "146.101.78.0/24",
  "148.163.128.0/19",
  "67.231.144.0/20",
  "216.82.240.0/20",
  "67.219.240.0/20",
  "85.158.136.0/21",
  "193.109.254.0/23",
  "194.106.220.0/23",
  "195.245.230.0/23",
];

const scanners = new BlockList();
for (const range of SCANNER_RANGES) {
  const [network, prefix] = range.split("/") as [string, string];
  scanners.addSubnet(network, Number(prefix), network.includes(":") ? "ipv6" : "ipv4");
}

/** Whether an address (IPv4, IPv6, or IPv4-mapped IPv6 as sockets report it) is a known scanner's. */
export function isScannerAddress(ip: string): boolean {
  const address = ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(address);
  if (family === 0) return false;
  return scanners.check(address, family === 4 ? "ipv4" : "ipv6");
}
