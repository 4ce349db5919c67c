import ipaddr from 'ipaddr.js';

/*
 * IP addresses and CIDR ranges as the gateway accepts them, wherever they are written: a key's IP allowlist
 * (auth/ip-allowlist.ts) and the trusted proxies of its configuration (config/gateway.config.ts). One rule for
 * both, in its own folder, so neither feature imports the other for it.
 */

export type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type Range = [Address, number];

/** The bits of the IPv4-mapped prefix `::ffff:0:0/96`. */
const MAPPED_PREFIX_BITS = 96;

/** Normalises an address so `::ffff:203.0.113.7` and `203.0.113.7` are the same caller. */
export function parseAddress(value: string): Address | undefined {
  if (!ipaddr.isValid(value)) return undefined;
  const parsed = ipaddr.parse(value);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    return (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed;
}

export type ParsedEntry = { range: Range } | { problem: string };

/**
 * One allowlist entry as the range it allows, or why it is refused. Clients are compared as IPv4 when they
 * connect over an IPv4-mapped address, so an IPv4-mapped range (`::ffff:203.0.113.0/120`) is read as the IPv4
 * range it covers (`203.0.113.0/24`); otherwise it could never match anyone. A range with host bits set
 * (`127.0.0.1/0`, `10.1.2.3/8`) is refused: its prefix length, not its address, decides what it allows, so it
 * almost always allows far more than the writer meant (`127.0.0.1/0` is every IPv4 address).
 */
export function parseEntry(entry: string): ParsedEntry {
  const notAnAddress = { problem: `${entry} is not an IP address or CIDR range` };
  if (!entry.includes('/')) {
    const address = parseAddress(entry);
    return address ? { range: [address, address.kind() === 'ipv4' ? 32 : 128] } : notAnAddress;
  }
  let range: Range;
  try {
    range = ipaddr.parseCIDR(entry);
  } catch {
    return notAnAddress;
  }
  let [address, bits] = range;
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    if (bits < MAPPED_PREFIX_BITS)
      return { problem: `${entry} reaches beyond the IPv4-mapped range ::ffff:0:0/96; write the IPv4 range instead` };
    [address, bits] = [(address as ipaddr.IPv6).toIPv4Address(), bits - MAPPED_PREFIX_BITS];
  }
  const network = networkOf(address, bits);
  if (network.toString() !== address.toString()) {
    return {
      problem: `${entry} has host bits set (the range of /${bits} starts at ${network.toString()}); write ${network.toString()}/${bits} or a single address`,
    };
  }
  return { range: [address, bits] };
}

export function networkOf(address: Address, bits: number): Address {
  return address.kind() === 'ipv4'
    ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`)
    : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`);
}

/** What is wrong with each refused entry, in words fit for a 400 message (empty when all are fine). */
export function addressRangeProblems(entries: unknown[]): string[] {
  return entries.flatMap((entry) => {
    if (typeof entry !== 'string') return [`${String(entry)} is not an IP address or CIDR range`];
    const parsed = parseEntry(entry.trim());
    return 'problem' in parsed ? [parsed.problem] : [];
  });
}
