import { stripeSignature, twilioSignature } from '../../../../test/stand-ins/provider-signatures';
import { ProviderWebhookRefused } from './provider-webhook';
import { STRIPE_TOLERANCE_SECONDS, StripeWebhookVerifier } from './stripe.verifier';
import { TwilioWebhookVerifier } from './twilio.verifier';

const STRIPE_SECRET = 'whsec_unitVerifiers0123456789';
const TWILIO_TOKEN = 'fedcba9876543210fedcba9876543210';
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
