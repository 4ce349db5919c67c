import { computeSignature, sign, signatureHeader, signedHeaders, verify, type VerifyOptions } from './signing';

// Vectors computed outside this code, with OpenSSL:
//   printf '%s' '<timestamp>.<body>' | openssl dgst -sha256 -hmac '<secret>'
const VECTORS = [
  {
    name: 'a JSON body',
    secret: 'whsec_test_secret',
    timestamp: 1700000000,
    body: '{"type":"call.completed","number_id":"num_1"}',
    hex: '0dc249938689682703440b544924e45c1133fc2b118773fb524b391e09158593',
  },
  {
    name: 'an empty body',
    secret: 'k',
    timestamp: 1735689600,
    body: '',
    hex: '32b5a7e7b448b5e765f382742992c5cc66d95fc56f0ab5f93b10025410eac7b0',
  },
  {
    name: 'a body with multi-byte UTF-8',
    secret: 'whsec_unicode',
    timestamp: 1700000000,
    body: 'h\u00e9llo \u260e',
    hex: '0e39a964d223beaadebf528260c65a7e660387d056dbdff17acc75e4ecc1a2db',
  },
  {
    name: 'the sample request of docs/webhooks.md',
    secret: 'whsec_example',
    timestamp: 1763658224,
    body: '{"type":"call.completed","number_id":"num_1","occurred_at":"2026-11-20T17:03:44.000Z","call":{"call_sid":"CA9f2c","caller":"+14155550199","outcome":"order_placed","duration_sec":93,"started_at":"2026-11-20T17:02:11.000Z","has_recording":true,"has_transcript":false,"analysis":{"summary":"Ordered a large margherita for pickup.","sentiment":"positive","successful":true,"custom":{"order_total":23.5}},"status":"completed"}}',
    hex: '5e406fbaf2a911101082248b20aafb82da53cc0a7ea16ef41d49e4fa1e5fae73',
  },
];

const signedAt = 1_700_000_000;
const atSigning = new Date(signedAt * 1000);

function options(overrides: Partial<VerifyOptions> = {}): VerifyOptions {
  const rawBody = '{"type":"call.completed"}';
  const signed = sign('whsec_test_secret', rawBody, signedAt);
  return {
    secret: 'whsec_test_secret',
    rawBody,
    timestampHeader: String(signed.timestamp),
    signatureHeader: signatureHeader(signed),
    now: atSigning,
    ...overrides,
  };
}

describe('computeSignature', () => {
  it.each(VECTORS)('matches the HMAC-SHA256 computed by OpenSSL for $name', ({ secret, timestamp, body, hex }) => {
    expect(computeSignature(secret, timestamp, body)).toBe(hex);
  });

  it.each(VECTORS)('hashes bytes and their UTF-8 string the same for $name', ({ secret, timestamp, body, hex }) => {
    expect(computeSignature(secret, timestamp, Buffer.from(body, 'utf8'))).toBe(hex);
  });

  it('refuses an empty secret', () => {
    expect(() => computeSignature('', signedAt, 'x')).toThrow(TypeError);
  });

  it('refuses a timestamp that is not whole seconds', () => {
    expect(() => computeSignature('k', 1.5, 'x')).toThrow(RangeError);
  });
});

describe('sign and signatureHeader', () => {
  it('signs at the given timestamp and formats the header as v1=<hex>', () => {
    const [vector] = VECTORS;
    const signed = sign(vector.secret, vector.body, vector.timestamp);
    expect(signed).toEqual({ timestamp: vector.timestamp, signature: vector.hex });
    expect(signatureHeader(signed)).toBe(`v1=${vector.hex}`);
    expect(signatureHeader(vector.hex)).toBe(`v1=${vector.hex}`);
  });

  it('gives both wire headers', () => {
    const [vector] = VECTORS;
    expect(signedHeaders(vector.secret, vector.body, vector.timestamp)).toEqual({
      'X-Switchboard-Timestamp': String(vector.timestamp),
      'X-Switchboard-Signature': `v1=${vector.hex}`,
    });
  });

  it('signs at the current time when no timestamp is given', () => {
    const before = Math.floor(Date.now() / 1000);
    const { timestamp } = sign('k', 'x');
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });
});

describe('verify', () => {
  it.each(VECTORS)('accepts the OpenSSL vector for $name', ({ secret, timestamp, body, hex }) => {
    const result = verify({
      secret,
      rawBody: body,
      timestampHeader: String(timestamp),
      signatureHeader: `v1=${hex}`,
      now: new Date(timestamp * 1000),
    });
    expect(result).toEqual({ valid: true, timestamp });
  });

  it('accepts headers as Node gives them, including arrays and upper-case hex', () => {
    const good = options();
    expect(
      verify({
        ...good,
        timestampHeader: [String(good.timestampHeader)],
        signatureHeader: String(good.signatureHeader).toUpperCase().replace('V1=', 'v1='),
      }),
    ).toEqual({
      valid: true,
      timestamp: signedAt,
    });
  });

  it('accepts a list holding one matching v1 signature among others and unknown schemes', () => {
    const good = options();
    const header = `v0=abc, v1=${'0'.repeat(64)}, ${String(good.signatureHeader)}`;
    expect(verify({ ...good, signatureHeader: header }).valid).toBe(true);
  });

  it('refuses a body changed by one byte', () => {
    expect(verify(options({ rawBody: '{"type":"call.completed" }' }))).toEqual({
      valid: false,
      reason: 'signature_mismatch',
    });
  });

  it('refuses a signature made with another secret', () => {
    expect(verify(options({ secret: 'whsec_other' }))).toEqual({ valid: false, reason: 'signature_mismatch' });
  });

  it('refuses a signature moved to another timestamp', () => {
    expect(verify(options({ timestampHeader: String(signedAt + 1) }))).toEqual({
      valid: false,
      reason: 'signature_mismatch',
    });
  });

  it('refuses a timestamp older than the default 300 s tolerance, and accepts one at the edge', () => {
    expect(verify(options({ now: new Date((signedAt + 300) * 1000) })).valid).toBe(true);
    expect(verify(options({ now: new Date((signedAt + 301) * 1000) }))).toEqual({
      valid: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });

  it('refuses a timestamp too far in the future', () => {
    expect(verify(options({ now: new Date((signedAt - 301) * 1000) }))).toEqual({
      valid: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });

  it('applies a custom tolerance', () => {
    expect(verify(options({ now: new Date((signedAt + 10) * 1000), toleranceSec: 5 }))).toEqual({
      valid: false,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(verify(options({ now: new Date((signedAt + 10) * 1000), toleranceSec: 10 })).valid).toBe(true);
  });

  it.each([
    ['missing_timestamp', { timestampHeader: undefined }],
    ['missing_timestamp', { timestampHeader: '  ' }],
    ['invalid_timestamp', { timestampHeader: '1700000000.5' }],
    ['invalid_timestamp', { timestampHeader: '-1' }],
    ['missing_signature', { signatureHeader: undefined }],
    ['missing_signature', { signatureHeader: [] }],
    ['invalid_signature', { signatureHeader: 'v2=abc' }],
    ['invalid_signature', { signatureHeader: 'v1=' }],
    ['invalid_signature', { signatureHeader: `v1=${'g'.repeat(64)}` }],
    ['invalid_signature', { signatureHeader: `v1=${'a'.repeat(62)}` }],
  ] as const)('answers %s for %j', (reason, overrides) => {
    expect(verify(options(overrides as Partial<VerifyOptions>))).toEqual({ valid: false, reason });
  });

  it('refuses a negative tolerance as a programming error', () => {
    expect(() => verify(options({ toleranceSec: -1 }))).toThrow(RangeError);
  });

  it.each([
    ['an invalid Date (NaN)', new Date(Number.NaN)],
    ['a Date parsed from nonsense', new Date('yesterday')],
    ['epoch milliseconds', (signedAt + 3_600) * 1000],
    ['NaN', Number.NaN],
    ['an ISO string', new Date((signedAt + 3_600) * 1000).toISOString()],
  ])('throws on %s as `now` rather than verifying a stale delivery', (_name, now) => {
    // Signed an hour before the real clock, far outside the 300 s: with a NaN clock it used to verify.
    const stale = options({ now: now as unknown as Date });
    expect(() => verify(stale)).toThrow(new TypeError('now must be a valid Date'));
    expect(verify(options({ now: new Date((signedAt + 3_600) * 1000) }))).toEqual({
      valid: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });
});
