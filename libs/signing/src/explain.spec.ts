import { explainVerification, type ExplainOptions } from './explain';
import { signedHeaders } from './signing';
import { standardWebhookHeaders } from './standard-webhooks';

const SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';
const BODY = '{"type":"call.completed","number_id":"num_1","call":{"duration_sec":93}}';
const SIGNED_AT = 1_763_658_224;
const AT_SIGNING = new Date(SIGNED_AT * 1000);

function delivery(overrides: Partial<ExplainOptions> = {}, secret = SECRET, body = BODY): ExplainOptions {
  return {
    secret: SECRET,
    rawBody: BODY,
    headers: { ...signedHeaders(secret, body, SIGNED_AT), ...standardWebhookHeaders(secret, 'evt_1', body, SIGNED_AT) },
    now: AT_SIGNING,
    ...overrides,
  };
}

describe('explainVerification', () => {
  it('says valid for a delivery as sent, and checks the Standard Webhooks headers too', () => {
    expect(explainVerification(delivery())).toMatchObject({
      valid: true,
      diagnosis: 'valid',
      clock_skew_seconds: 0,
      standard_webhooks_valid: true,
    });
  });

  it('names a body parsed and serialised again (pretty-printed)', () => {
    const result = explainVerification(delivery({ rawBody: JSON.stringify(JSON.parse(BODY), null, 2) }));
    expect(result).toMatchObject({ valid: false, diagnosis: 'body_reserialized', standard_webhooks_valid: false });
    expect(result.explanation).toMatch(/raw bytes/);
  });

  it('names a trailing newline', () => {
    expect(explainVerification(delivery({ rawBody: `${BODY}\n` })).diagnosis).toBe('body_whitespace_changed');
  });

  it('names clock skew with the seconds, either way', () => {
    const late = explainVerification(delivery({ now: new Date((SIGNED_AT + 900) * 1000) }));
    expect(late).toMatchObject({ diagnosis: 'timestamp_out_of_tolerance', clock_skew_seconds: 900 });
    expect(late.explanation).toMatch(/900 s in the past/);
    expect(explainVerification(delivery({ now: new Date((SIGNED_AT - 400) * 1000) })).explanation).toMatch(
      /400 s in the future/,
    );
  });

  it('throws on an invalid Date as `now`, as verify does, rather than calling a stale delivery valid', () => {
    expect(() => explainVerification(delivery({ now: new Date(Number.NaN) }))).toThrow(
      new TypeError('now must be a valid Date'),
    );
  });

  it('names a wrong secret (or a changed body) when no repair explains it', () => {
    const result = explainVerification(delivery({ secret: 'whsec_somebody_else' }));
    expect(result).toMatchObject({ valid: false, diagnosis: 'signature_mismatch', standard_webhooks_valid: false });
    expect(explainVerification(delivery({ rawBody: BODY.replace('93', '94') })).diagnosis).toBe('signature_mismatch');
  });

  it('names a secret with whitespace, or without its whsec_ prefix', () => {
    expect(explainVerification(delivery({ secret: `${SECRET}\n` })).diagnosis).toBe('secret_whitespace');
    expect(explainVerification(delivery({ secret: SECRET.slice('whsec_'.length) })).diagnosis).toBe(
      'secret_without_prefix',
    );
  });

  it.each([
    ['missing_signature', { 'X-Switchboard-Timestamp': String(SIGNED_AT) }],
    ['missing_timestamp', { 'X-Switchboard-Signature': `v1=${'a'.repeat(64)}` }],
    [
      'timestamp_in_milliseconds',
      { 'X-Switchboard-Timestamp': `${SIGNED_AT}000`, 'X-Switchboard-Signature': `v1=${'a'.repeat(64)}` },
    ],
    [
      'invalid_timestamp',
      { 'X-Switchboard-Timestamp': '2026-11-20', 'X-Switchboard-Signature': `v1=${'a'.repeat(64)}` },
    ],
    ['invalid_signature', { 'X-Switchboard-Timestamp': String(SIGNED_AT), 'X-Switchboard-Signature': 'sha256=abc' }],
    [
      'standard_signature_in_switchboard_header',
      {
        'X-Switchboard-Timestamp': String(SIGNED_AT),
        'X-Switchboard-Signature': 'v1,K7gNU3sdo+OL0wNhqoVWhr3g6s1xYv72ol/pe/Unols=',
      },
    ],
  ])('names the header format problem %s', (diagnosis, headers) => {
    expect(explainVerification(delivery({ headers })).diagnosis).toBe(diagnosis);
  });

  it('reads header names in any case', () => {
    const headers = Object.fromEntries(
      Object.entries(delivery().headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    expect(explainVerification(delivery({ headers })).valid).toBe(true);
  });
});
