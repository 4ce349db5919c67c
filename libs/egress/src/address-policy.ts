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
  if (!ipaddr.isValid(address)) return { public: false, reason: 'not an IP address' };
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const range: string = parsed.range();
  // Only plain unicast is public; every special range (listed above for the reader, and any range a newer
  // ipaddr.js adds) is refused.
  if (range === 'unicast') return { public: true };
  return { public: false, reason: `${REFUSED_RANGES.has(range) ? range : `special-purpose (${range})`} address` };
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address).public;
}
