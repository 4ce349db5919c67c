import { addressRangeProblems, parseAddress, parseEntry } from '../address-ranges/address-ranges';

/** What is wrong with each refused entry, in words fit for a 400 message (empty when all are fine). */
export function allowlistProblems(entries: unknown[]): string[] {
  return addressRangeProblems(entries);
}

/** The entries that are not an IPv4/IPv6 address or a CIDR range written by its network address. */
export function invalidAllowlistEntries(entries: string[]): string[] {
  return entries.filter((entry) => typeof entry !== 'string' || 'problem' in parseEntry(entry.trim()));
}

/** Canonical text of each (valid) entry, as stored and answered: IPv4-mapped ranges as IPv4 ranges. */
export function normalizeAllowlist(entries: string[]): string[] {
  return entries.map((entry) => {
    const parsed = parseEntry(entry.trim());
    if ('problem' in parsed) throw new Error(parsed.problem);
    const [address, bits] = parsed.range;
    const full = address.kind() === 'ipv4' ? 32 : 128;
    return bits === full && !entry.includes('/') ? address.toString() : `${address.toString()}/${bits}`;
  });
}

/**
 * An empty allowlist allows every address. An entry that is refused today but was stored before (a range with
 * host bits set) allows no one: failing closed locks its key's owner out until they replace the key, where
 * failing open would let everyone in.
 */
export function isAllowed(allowlist: string[], clientIp: string): boolean {
  if (allowlist.length === 0) return true;
  const address = parseAddress(clientIp);
  if (!address) return false;
  return allowlist.some((entry) => {
    const parsed = parseEntry(entry);
    if ('problem' in parsed || parsed.range[0].kind() !== address.kind()) return false;
    return address.match(parsed.range);
  });
}
