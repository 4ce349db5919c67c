import { allowlistProblems, invalidAllowlistEntries, isAllowed, normalizeAllowlist } from './ip-allowlist';

describe('IP allowlists', () => {
  it('allow every address when empty', () => {
    expect(isAllowed([], '203.0.113.9')).toBe(true);
  });

  it('match single IPv4 and IPv6 addresses and CIDR ranges', () => {
    const list = normalizeAllowlist(['203.0.113.7', '198.51.100.0/24', '2001:db8::/32']);
    expect(isAllowed(list, '203.0.113.7')).toBe(true);
    expect(isAllowed(list, '203.0.113.8')).toBe(false);
    expect(isAllowed(list, '198.51.100.200')).toBe(true);
    expect(isAllowed(list, '198.51.101.1')).toBe(false);
    expect(isAllowed(list, '2001:db8:1::5')).toBe(true);
    expect(isAllowed(list, '2001:db9::1')).toBe(false);
  });

  it('treat an IPv4-mapped IPv6 client as its IPv4 address', () => {
    expect(isAllowed(['203.0.113.7'], '::ffff:203.0.113.7')).toBe(true);
    expect(isAllowed(['203.0.113.0/24'], '::ffff:203.0.113.99')).toBe(true);
  });

  it('refuse a client whose address cannot be parsed', () => {
    expect(isAllowed(['0.0.0.0/0'], 'not-an-ip')).toBe(false);
  });

  it('name the entries that are not addresses or ranges', () => {
    expect(invalidAllowlistEntries(['10.0.0.0/8', 'example.com', '300.1.1.1', '10.0.0.0/33', '::1'])).toEqual([
      'example.com',
      '300.1.1.1',
      '10.0.0.0/33',
    ]);
  });

  it('store entries in canonical form', () => {
    expect(normalizeAllowlist([' 2001:0db8::0001 ', '10.0.0.0/8', '2001:db8:0::/48'])).toEqual([
      '2001:db8::1',
      '10.0.0.0/8',
      '2001:db8::/48',
    ]);
  });

  it('refuse ranges with host bits set, saying which network was meant', () => {
    expect(
      invalidAllowlistEntries(['127.0.0.1/0', '10.1.2.3/8', '2001:db8::1/32', '10.0.0.0/8', '203.0.113.7/32']),
    ).toEqual(['127.0.0.1/0', '10.1.2.3/8', '2001:db8::1/32']);
    expect(allowlistProblems(['127.0.0.1/0', '10.1.2.3/8'])).toEqual([
      '127.0.0.1/0 has host bits set (the range of /0 starts at 0.0.0.0); write 0.0.0.0/0 or a single address',
      '10.1.2.3/8 has host bits set (the range of /8 starts at 10.0.0.0); write 10.0.0.0/8 or a single address',
    ]);
    expect(allowlistProblems(['10.0.0.0/8', '::1'])).toEqual([]);
  });

  it('let no one in through a stored range with host bits set (fail closed)', () => {
    expect(isAllowed(['127.0.0.1/0'], '203.0.113.7')).toBe(false);
    expect(isAllowed(['127.0.0.1/0'], '127.0.0.1')).toBe(false);
    expect(isAllowed(['127.0.0.1/0', '203.0.113.7'], '203.0.113.7')).toBe(true);
  });

  it('read IPv4-mapped ranges as the IPv4 ranges they cover, so they match IPv4 and mapped clients', () => {
    expect(normalizeAllowlist(['::ffff:203.0.113.0/120', '::ffff:198.51.100.7/128'])).toEqual([
      '203.0.113.0/24',
      '198.51.100.7/32',
    ]);
    expect(isAllowed(['::ffff:203.0.113.0/120'], '203.0.113.99')).toBe(true);
    expect(isAllowed(['::ffff:203.0.113.0/120'], '::ffff:203.0.113.99')).toBe(true);
    expect(isAllowed(['::ffff:203.0.113.0/120'], '198.51.100.1')).toBe(false);
    expect(invalidAllowlistEntries(['::ffff:0:0/80', '::ffff:203.0.113.1/120'])).toEqual([
      '::ffff:0:0/80',
      '::ffff:203.0.113.1/120',
    ]);
  });
});
