import { classifyAddress, isPublicAddress } from './address-policy';
import {
  EgressRefusedError,
  UnresolvableHostError,
  checkWebhookUrl,
  egressPolicyFromEnv,
  resolveWebhookTarget,
  type Resolver,
} from './egress-policy';

const resolvesTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const noPolicy = egressPolicyFromEnv({});

describe('public-address rule', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    'ff02::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::169.254.169.254', '::8.8.8.8', '::0.0.0.2'])(
    'refuses the IPv4-compatible IPv6 address %s (::/96)',
    (address) => {
      expect(classifyAddress(address)).toEqual({ public: false, reason: 'ipv4Compatible address' });
    },
  );

  it('says why an address is refused', () => {
    expect(classifyAddress('169.254.169.254')).toEqual({ public: false, reason: 'linkLocal address' });
    expect(classifyAddress('nope')).toEqual({ public: false, reason: 'not an IP address' });
  });
});

describe('resolveWebhookTarget', () => {
  it('returns the checked address to connect to, with the host for TLS and Host', async () => {
    const target = await resolveWebhookTarget(
      'https://hooks.example.com:8443/in?x=1',
      noPolicy,
      resolvesTo('93.184.216.34'),
    );
    expect(target).toMatchObject({ host: 'hooks.example.com', port: 8443, address: '93.184.216.34', family: 4 });
  });

  it('refuses a name that resolves to loopback, and one with any private answer among public ones', async () => {
    await expect(resolveWebhookTarget('https://evil.example/', noPolicy, resolvesTo('127.0.0.1'))).rejects.toThrow(
      EgressRefusedError,
    );
    await expect(
      resolveWebhookTarget('https://mixed.example/', noPolicy, resolvesTo('93.184.216.34', '10.0.0.5')),
    ).rejects.toThrow(/not public/);
  });

  it('refuses private IP literals, http, credentials and names that do not resolve', async () => {
    await expect(resolveWebhookTarget('https://[::1]/', noPolicy)).rejects.toThrow(/loopback/);
    await expect(resolveWebhookTarget('https://169.254.169.254/latest', noPolicy)).rejects.toThrow(/linkLocal/);
    await expect(resolveWebhookTarget('https://[::127.0.0.1]/', noPolicy)).rejects.toThrow(/ipv4Compatible/);
    await expect(resolveWebhookTarget('http://93.184.216.34/', noPolicy)).rejects.toThrow(/https/);
    await expect(
      resolveWebhookTarget('https://user:pw@example.com/', noPolicy, resolvesTo('93.184.216.34')),
    ).rejects.toThrow(/credentials/);
    await expect(
      resolveWebhookTarget('https://nowhere.invalid/', noPolicy, async () => {
        throw new Error('ENOTFOUND');
      }),
    ).rejects.toThrow(/does not resolve/);
    await expect(resolveWebhookTarget('not a url', noPolicy)).rejects.toThrow(/absolute URL/);
  });

  it('lets only hosts listed in WEBHOOK_ALLOWED_PRIVATE_HOSTS through to private addresses', async () => {
    const policy = egressPolicyFromEnv({ WEBHOOK_ALLOWED_PRIVATE_HOSTS: 'localhost, 127.0.0.1,Receiver.Test.' });
    await expect(
      resolveWebhookTarget('https://localhost:9443/', policy, resolvesTo('127.0.0.1')),
    ).resolves.toMatchObject({ address: '127.0.0.1', port: 9443 });
    await expect(resolveWebhookTarget('https://127.0.0.1/', policy)).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(resolveWebhookTarget('https://receiver.test/', policy, resolvesTo('10.0.0.9'))).resolves.toMatchObject(
      { address: '10.0.0.9' },
    );
    await expect(resolveWebhookTarget('https://other.test/', policy, resolvesTo('127.0.0.1'))).rejects.toThrow(
      EgressRefusedError,
    );
  });
});

describe('checkWebhookUrl (when a URL is set)', () => {
  const fails: Resolver = async () => {
    throw new Error('ENOTFOUND');
  };

  it('accepts a public URL and a name that does not resolve yet (checked again at every delivery)', async () => {
    await expect(
      checkWebhookUrl('https://hooks.example.com/in', noPolicy, resolvesTo('93.184.216.34')),
    ).resolves.toBeUndefined();
    await expect(checkWebhookUrl('https://not-yet.example.com/in', noPolicy, fails)).resolves.toBeUndefined();
    await expect(resolveWebhookTarget('https://not-yet.example.com/in', noPolicy, fails)).rejects.toBeInstanceOf(
      UnresolvableHostError,
    );
  });

  it('refuses private literals, names resolving to private addresses, http and credentials', async () => {
    await expect(checkWebhookUrl('https://10.0.0.1/', noPolicy)).rejects.toThrow(EgressRefusedError);
    await expect(checkWebhookUrl('https://[::127.0.0.1]:8443/in', noPolicy)).rejects.toThrow(/ipv4Compatible/);
    await expect(checkWebhookUrl('https://compat.example/', noPolicy, resolvesTo('::7f00:1'))).rejects.toThrow(
      /not public/,
    );
    await expect(checkWebhookUrl('https://internal.example/', noPolicy, resolvesTo('192.168.0.10'))).rejects.toThrow(
      /not public/,
    );
    await expect(checkWebhookUrl('http://hooks.example.com/', noPolicy, resolvesTo('93.184.216.34'))).rejects.toThrow(
      /https/,
    );
    await expect(
      checkWebhookUrl('https://a:b@hooks.example.com/', noPolicy, resolvesTo('93.184.216.34')),
    ).rejects.toThrow(/credentials/);
  });
});
