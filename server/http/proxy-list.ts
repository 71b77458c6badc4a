import { BlockList, isIP } from "node:net";

/**
 * `CONSOLE_TRUSTED_PROXIES` as a list the socket addresses are checked against: comma-separated IP addresses or
 * CIDR ranges. Throws, naming the entry, when one is neither.
 */
export function parseProxyList(raw: string): BlockList {
  const list = new BlockList();
  for (const entry of raw.split(",").map((part) => part.trim())) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (family === 0 || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32)) {
      throw new Error(`"${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8)`);
    }
    list.addSubnet(address, bits, family === 6 ? "ipv6" : "ipv4");
  }
  return list;
}
