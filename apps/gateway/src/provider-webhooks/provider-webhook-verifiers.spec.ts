import { retellSignature, stripeSignature, twilioSignature } from '../../../../test/stand-ins/provider-signatures';
import { ProviderWebhookRefused } from './provider-webhook';
import { RetellWebhookVerifier } from './retell.verifier';
import { STRIPE_TOLERANCE_SECONDS, StripeWebhookVerifier } from './stripe.verifier';
import { TwilioWebhookVerifier } from './twilio.verifier';

const STRIPE_SECRET = 'whsec_unitVerifiers0123456789';
const TWILIO_TOKEN = 'fedcba9876543210fedcba9876543210';
const RETELL_KEY = 'key_unit_retell_0123456789';
const OUR_ACCOUNT = `AC${'1'.repeat(32)}`;
const PUBLIC_BASE_URL = 'https://api.switchboard.test';

/** What a verifier throws, for the assertions on its code, answer and logged detail. */
async function refusal(verifying: Promise<unknown>): Promise<ProviderWebhookRefused> {
  const error = await verifying.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderWebhookRefused);
  return error as ProviderWebhookRefused;
}

describe('StripeWebhookVerifier', () => {
  const verifier = new StripeWebhookVerifier(STRIPE_SECRET);
  const body = JSON.stringify({ id: 'evt_unit_1', object: 'event', type: 'payment_intent.succeeded' });
  const verify = (at: Date) =>
    verifier.verify({
      callback: '',
      url: '/provider-webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(body, STRIPE_SECRET, at) },
      body: Buffer.from(body),
    });

  it('takes an event signed now, or within the tolerance either side of our clock', async () => {
    await expect(verify(new Date())).resolves.toMatchObject({ eventId: 'evt_unit_1' });
    await expect(verify(new Date(Date.now() + 4 * 60_000))).resolves.toMatchObject({ eventId: 'evt_unit_1' });
    await expect(verify(new Date(Date.now() - 4 * 60_000))).resolves.toMatchObject({ eventId: 'evt_unit_1' });
  });

  it('refuses a correctly signed event dated an hour ahead as it refuses one an hour old', async () => {
    const ahead = await refusal(verify(new Date(Date.now() + 60 * 60_000)));
    const old = await refusal(verify(new Date(Date.now() - 60 * 60_000)));
    expect([ahead.code, old.code]).toEqual(['unauthorized', 'unauthorized']);
    expect(ahead.message).toBe(old.message);
    expect(ahead.detail).toMatch(/^the event is signed 3[56]\d\d s ahead of our clock$/);
    // Just past the tolerance ahead is refused too.
    const justPast = new Date(Date.now() + (STRIPE_TOLERANCE_SECONDS + 30) * 1000);
    expect((await refusal(verify(justPast))).code).toBe('unauthorized');
  });

  it('refuses a correctly signed body that is not JSON with 400 invalid_request, not as a bad signature', async () => {
    const notJson = '{"id":"evt_unit_2",\u0000}';
    const refused = await refusal(
      verifier.verify({
        callback: '',
        url: '/provider-webhooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(notJson, STRIPE_SECRET) },
        body: Buffer.from(notJson),
      }),
    );
    expect([refused.code, refused.message]).toEqual(['invalid_request', 'The Stripe event is not JSON.']);
  });
});

describe('TwilioWebhookVerifier', () => {
  const verifier = new TwilioWebhookVerifier(TWILIO_TOKEN, OUR_ACCOUNT, PUBLIC_BASE_URL);
  const status = (
    params: Record<string, string>,
    signature = twilioSignature(`${PUBLIC_BASE_URL}/provider-webhooks/twilio/status`, params, TWILIO_TOKEN),
  ) =>
    verifier.verify({
      callback: 'status',
      url: '/provider-webhooks/twilio/status',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      body: Buffer.from(new URLSearchParams(params).toString()),
    });
  const callback = (accountSid: string) => ({
    AccountSid: accountSid,
    CallSid: `CA${'a'.repeat(32)}`,
    CallStatus: 'completed',
  });

  it('takes a callback signed with our token that names our account', async () => {
    await expect(status(callback(OUR_ACCOUNT))).resolves.toMatchObject({
      eventId: `CA${'a'.repeat(32)}:completed`,
      kind: 'call.status',
    });
  });

  it('refuses a callback signed with our token for another account exactly as a bad signature, saying why in the log', async () => {
    const otherAccount = await refusal(status(callback(`AC${'2'.repeat(32)}`)));
    const badSignature = await refusal(status(callback(OUR_ACCOUNT), 'bm90IGEgc2lnbmF0dXJl'));
    expect([otherAccount.code, otherAccount.message]).toEqual([badSignature.code, badSignature.message]);
    expect(otherAccount.code).toBe('unauthorized');
    expect(otherAccount.detail).toBe(`the callback names account "AC${'2'.repeat(32)}", not ours`);
    expect(badSignature.detail).toBeUndefined();
    // Without any AccountSid, the same.
    const { AccountSid: _left, ...withoutAccount } = callback(OUR_ACCOUNT);
    const none = await refusal(status(withoutAccount));
    expect([none.code, none.message]).toEqual([badSignature.code, badSignature.message]);
  });
});

describe('RetellWebhookVerifier', () => {
  const verifier = new RetellWebhookVerifier(RETELL_KEY);
  const verify = (event: string, call: Record<string, unknown>) => {
    const body = JSON.stringify({ event, call: { call_id: 'call_unit_1', ...call } });
    return verifier.verify({
      callback: '',
      url: '/provider-webhooks/retell',
      headers: { 'content-type': 'application/json', 'x-retell-signature': retellSignature(body, RETELL_KEY) },
      body: Buffer.from(body),
    });
  };
  const utterances = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'user' : 'agent', content: `line ${i}`, words: [] }));

  it('keys a call event by call and event: call_started and call_ended are one fact each per call', async () => {
    await expect(verify('call_started', {})).resolves.toMatchObject({
      eventId: 'call_unit_1:call_started',
      kind: 'call_started',
    });
    await expect(verify('call_ended', { transcript_object: utterances(4) })).resolves.toMatchObject({
      eventId: 'call_unit_1:call_ended',
    });
  });

  it("keys each transcript_updated of a call by the transcript's length, so every update is taken in once", async () => {
    const ids = await Promise.all(
      [undefined, utterances(1), utterances(2), utterances(2)].map(async (transcript) => {
        const event = await verify('transcript_updated', transcript ? { transcript_object: transcript } : {});
        return event.eventId;
      }),
    );
    expect(ids).toEqual([
      'call_unit_1:transcript_updated:0',
      'call_unit_1:transcript_updated:1',
      'call_unit_1:transcript_updated:2',
      // The same update sent again is the same event.
      'call_unit_1:transcript_updated:2',
    ]);
    await expect(verify('transcript_updated', { transcript_object: 'not a list' })).resolves.toMatchObject({
      eventId: 'call_unit_1:transcript_updated:0',
      kind: 'transcript_updated',
    });
  });
});
