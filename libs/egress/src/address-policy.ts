import ipaddr from 'ipaddr.js';

/**
 * The one rule for where Switchboard may send HTTP on a customer's behalf (webhooks): public unicast addresses
 * only. Checked when a webhook URL is set and again at send time, against the address actually connected to.
 */
const REFUSED_RANGES = new Set([
  'unspecified', // 0.0.0.0, ::
  'broadcast',
  'multicast',
  'linkLocal', // 169.254/16 (cloud metadata), fe80::/10
  'loopback', // 127/8, ::1
  'carrierGradeNat', // 100.64/10
  'private', // 10/8, 172.16/12, 192.168/16
  'reserved', // 240/4, documentation and benchmarking ranges
  'uniqueLocal', // fc00::/7
  'ipv4Mapped', // ::ffff:a.b.c.d is judged by its IPv4 address (below)
  'ipv4Compatible', // ::a.b.c.d (::/96), deprecated; ipaddr.js calls it unicast (below)
  'rfc6145',
  'rfc6052', // NAT64 64:ff9b::/96
  '6to4', // 2002::/16 embeds an IPv4 address
  'teredo',
  'discard',
  'benchmarking',
  'amt',
  'as112',
  'deprecated',
  'orchid2',
  'droneRemoteIdProtocolEntityTags',
]);

export type AddressVerdict = { public: true } | { public: false; reason: string };

export function classifyAddress(address: string): AddressVerdict {
  const canonical = canonicalAddress(address);
  if (canonical === undefined) return { public: false, reason: 'not an IP address' };
  let parsed = ipaddr.parse(canonical);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range: string = isIPv4Compatible(parsed) ? 'ipv4Compatible' : parsed.range();
  // Only plain unicast is public; every special range (listed above for the reader, and any range a newer
  // ipaddr.js adds) is refused.
  if (range === 'unicast') return { public: true };
  return { public: false, reason: `${REFUSED_RANGES.has(range) ? range : `special-purpose (${range})`} address` };
}

/**
 * The address in the form ipaddr.js reads correctly. ipaddr.js takes any IPv6 text ending in a dotted quad for an
 * IPv4-mapped address (`::127.0.0.1` parses as `::ffff:127.0.0.1`), so IPv6 text goes through the URL parser
 * first, which writes it as URLs and resolvers do (`::7f00:1`).
 */
function canonicalAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  if (!address.includes(':')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/**
 * `::a.b.c.d` (`::/96`, RFC 4291 2.5.5.1, deprecated): ipaddr.js classifies it as plain unicast, yet some stacks
 * route it to the embedded IPv4 address, so `https://[::127.0.0.1]/` reached loopback. No public receiver uses one;
 * the whole block is refused (`::` and `::1` keep their own names).
 */
function isIPv4Compatible(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() !== 'ipv6') return false;
  const parts = (address as ipaddr.IPv6).parts;
  return parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7] > 1);
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address).public;
}
