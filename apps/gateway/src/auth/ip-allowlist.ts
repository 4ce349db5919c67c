import ipaddr from 'ipaddr.js';

export const MAX_ALLOWLIST_ENTRIES = 100;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Normalises an address so `::ffff:203.0.113.7` and `203.0.113.7` are the same caller. */
function parseAddress(value: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ipaddr.isValid(value)) return undefined;
  const parsed = ipaddr.parse(value);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed;
}

function parseEntry(entry: string): Range | undefined {
  try {
    if (entry.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(entry);
      return [address, bits];
    }
    const address = parseAddress(entry);
    if (!address) return undefined;
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return undefined;
  }
}

/** The entries that are not an IPv4/IPv6 address or CIDR range (for a 400 that names them). */
export function invalidAllowlistEntries(entries: string[]): string[] {
  return entries.filter((entry) => typeof entry !== 'string' || parseEntry(entry.trim()) === undefined);
}

/** Canonical text of each entry, as stored and answered. */
export function normalizeAllowlist(entries: string[]): string[] {
  return entries.map((entry) => {
    const [address, bits] = parseEntry(entry.trim()) as Range;
    const full = address.kind() === 'ipv4' ? 32 : 128;
    return bits === full && !entry.includes('/') ? address.toString() : `${address.toString()}/${bits}`;
  });
}

/** An empty allowlist allows every address. */
export function isAllowed(allowlist: string[], clientIp: string): boolean {
  if (allowlist.length === 0) return true;
  const address = parseAddress(clientIp);
  if (!address) return false;
  return allowlist.some((entry) => {
    const range = parseEntry(entry);
    if (!range || range[0].kind() !== address.kind()) return false;
    return address.match(range);
  });
}
