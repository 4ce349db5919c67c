import { invalidAllowlistEntries, isAllowed, normalizeAllowlist } from './ip-allowlist';

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
    expect(invalidAllowlistEntries(['10.0.0.0/8', 'example.com', '300.1.1.1', '10.0.0.0/33', '::1'])).toEqual(['example.com', '300.1.1.1', '10.0.0.0/33']);
  });

  it('store entries in canonical form', () => {
    expect(normalizeAllowlist([' 2001:0db8::0001 ', '10.1.2.3/8'])).toEqual(['2001:db8::1', '10.1.2.3/8']);
  });
});
