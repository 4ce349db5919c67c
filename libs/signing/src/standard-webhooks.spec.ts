import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signedHeaders, verify } from './signing';
import {
  standardSignature,
  standardWebhookHeaders,
  standardWebhooksKey,
  toStandardWebhooksSecret,
} from './standard-webhooks';

const mint = () => `whsec_${randomBytes(32).toString('base64url')}`;
const body = '{"type":"call.completed","number_id":"num_1"}';
const eventId = '6f1c2a9e-3b7d-4f5a-9c0e-1d2b3a4c5d6e';

describe('Standard Webhooks headers', () => {
  it('are verified by the standardwebhooks package with the secret in its standard form', () => {
    const secret = mint();
    const now = Math.floor(Date.now() / 1000);
    const headers = standardWebhookHeaders(secret, eventId, body, now);
    expect(new Webhook(toStandardWebhooksSecret(secret)).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('carry one signature per secret, space-separated, each verified by the package', () => {
    const [fresh, old] = [mint(), mint()];
    const headers = standardWebhookHeaders([fresh, old], eventId, body, Math.floor(Date.now() / 1000));
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [fresh, old])
      expect(new Webhook(toStandardWebhooksSecret(secret)).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(toStandardWebhooksSecret(mint())).verify(body, headers)).toThrow(
      'No matching signature found',
    );
  });

  it('key a minted secret by the 32 bytes it encodes, any other secret by its UTF-8 bytes (format raw)', () => {
    const secret = mint();
    expect(standardWebhooksKey(secret)).toHaveLength(32);
    expect(standardWebhooksKey('whsec_short')).toEqual(Buffer.from('whsec_short'));
    const now = Math.floor(Date.now() / 1000);
    const headers = standardWebhookHeaders('whsec_short', eventId, body, now);
    expect(new Webhook('whsec_short', { format: 'raw' }).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('sign id, timestamp and body: a changed id does not verify', () => {
    const secret = mint();
    const now = Math.floor(Date.now() / 1000);
    expect(standardSignature(secret, eventId, now, body)).not.toBe(standardSignature(secret, 'other', now, body));
  });
});

describe('signing during a rotation overlap', () => {
  it('sends v1=<new> v1=<old>, and verify accepts it with either secret and refuses a third', () => {
    const [fresh, old] = [mint(), mint()];
    const headers = signedHeaders([fresh, old], body, 1_700_000_000);
    expect(headers['X-Switchboard-Signature']).toMatch(/^v1=[0-9a-f]{64} v1=[0-9a-f]{64}$/);
    const check = (secret: string | string[]) =>
      verify({
        secret,
        rawBody: body,
        timestampHeader: headers['X-Switchboard-Timestamp'],
        signatureHeader: headers['X-Switchboard-Signature'],
        now: new Date(1_700_000_000_000),
      });
    expect(check(fresh)).toEqual({ valid: true, timestamp: 1_700_000_000 });
    expect(check(old)).toEqual({ valid: true, timestamp: 1_700_000_000 });
    expect(check(mint())).toEqual({ valid: false, reason: 'signature_mismatch' });
    // A receiver rotating on its side can hold both secrets.
    expect(check([mint(), old])).toEqual({ valid: true, timestamp: 1_700_000_000 });
  });

  it('refuses an empty list of secrets as a programming error', () => {
    expect(() => signedHeaders([], body)).toThrow(TypeError);
    expect(() => verify({ secret: [], rawBody: body, timestampHeader: '1', signatureHeader: 'v1=x' })).toThrow(
      TypeError,
    );
  });
});
