import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { EventEnvelope, ProviderEventReceivedData } from '@switchboard/contracts';
import { testNatsOptions } from '@switchboard/testing';
import { retellSignature, stripeSignature, twilioSignature } from '../stand-ins/provider-signatures';
import { startSystem, type RunningSystem } from './support';

jest.setTimeout(90_000);

const STRIPE_SECRET = 'whsec_e2eProviderWebhooks0123456789';
const TWILIO_TOKEN = '0123456789abcdef0123456789abcdef';
const RETELL_KEY = 'key_e2e_retell_0123456789';
const PUBLIC_BASE_URL = 'https://api.switchboard.test';
const ACCOUNT_SID = `AC${'1'.repeat(32)}`;

/**
 * Issue 17's public door for providers: each provider's webhook is verified before anything is read, accepted once
 * per provider event id, answered at once, and published once to the PROVIDER stream through the gateway's outbox.
 * Bad, unsigned, stale or unconfigured requests get a 4xx and record nothing.
 */
describe('provider webhooks', () => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startSystem({
      services: [],
      env: {
        STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
        TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
        TWILIO_ACCOUNT_SID: ACCOUNT_SID,
        RETELL_API_KEY: RETELL_KEY,
        PUBLIC_BASE_URL,
      },
    });
  });

  afterAll(async () => {
    await system?.stop();
  });

  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetch(`${system.publicUrl}${path}`, { method: 'POST', body, headers });

  const stripeEvent = (id: string) =>
    JSON.stringify({
      id,
      object: 'event',
      type: 'payment_intent.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'pi_e2e', object: 'payment_intent', status: 'succeeded', amount: 2500 } },
    });

  /** The PROVIDER stream's events, waiting until `expected` ids are there (or a few seconds passed). */
  async function publishedEvents(expected: string[]): Promise<EventEnvelope<ProviderEventReceivedData>[]> {
    const nc = await connect(testNatsOptions());
    try {
      const jsm = await jetstreamManager(nc);
      const stream = `${system.prefix.toUpperCase()}_PROVIDER`;
      let events: EventEnvelope<ProviderEventReceivedData>[] = [];
      for (let attempt = 0; attempt < 100; attempt++) {
        events = [];
        const info = await jsm.streams.info(stream).catch(() => undefined);
        if (info && info.state.messages > 0) {
          for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
            const msg = await jsm.streams.getMessage(stream, { seq });
            if (msg) events.push(msg.json<EventEnvelope<ProviderEventReceivedData>>());
          }
        }
        if (expected.every((id) => events.some((event) => event.data.event_id === id))) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return events;
    } finally {
      await nc.close();
    }
  }

  it('accepts a signed Stripe event once and publishes it once', async () => {
    const body = stripeEvent('evt_e2e_once');
    const headers = { 'content-type': 'application/json', 'stripe-signature': stripeSignature(body, STRIPE_SECRET) };
    const first = await post('/provider-webhooks/stripe', body, headers);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    // Stripe retries an event it is unsure about: the same event again changes nothing.
    const again = await post('/provider-webhooks/stripe', body, headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });

    const events = (await publishedEvents(['evt_e2e_once'])).filter((e) => e.data.event_id === 'evt_e2e_once');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'provider.stripe.received',
      data: { provider: 'stripe', event_id: 'evt_e2e_once', kind: 'payment_intent.succeeded' },
    });
    expect(events[0].data.payload).toMatchObject({ data: { object: { id: 'pi_e2e', amount: 2500 } } });
    expect(events[0].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('refuses Stripe events that are unsigned, wrongly signed, changed, stale or dated ahead', async () => {
    const body = stripeEvent('evt_e2e_refused');
    const cases: [Record<string, string>, string][] = [
      [{}, body],
      [{ 'stripe-signature': stripeSignature(body, 'whsec_someoneElse0123') }, body],
      [{ 'stripe-signature': stripeSignature(body, STRIPE_SECRET) }, body.replace('2500', '250000')],
      [{ 'stripe-signature': stripeSignature(body, STRIPE_SECRET, new Date(Date.now() - 6 * 60_000)) }, body],
      // Correctly signed, but dated an hour ahead: beyond the tolerance the other way.
      [{ 'stripe-signature': stripeSignature(body, STRIPE_SECRET, new Date(Date.now() + 60 * 60_000)) }, body],
      [{ 'stripe-signature': 'not a signature' }, body],
    ];
    for (const [headers, sent] of cases) {
      const response = await post('/provider-webhooks/stripe', sent, {
        'content-type': 'application/json',
        ...headers,
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
    // A signed body that is not an event.
    const notEvent = JSON.stringify({ hello: 'world' });
    const response = await post('/provider-webhooks/stripe', notEvent, {
      'content-type': 'application/json',
      'stripe-signature': stripeSignature(notEvent, STRIPE_SECRET),
    });
    expect(response.status).toBe(400);
    const events = await publishedEvents([]);
    expect(events.filter((event) => event.data.event_id === 'evt_e2e_refused')).toHaveLength(0);
  });

  it('accepts Twilio status and recording callbacks signed over the public URL and form', async () => {
    const callSid = `CA${'a'.repeat(32)}`;
    const status = {
      AccountSid: ACCOUNT_SID,
      CallSid: callSid,
      CallStatus: 'no-answer',
      To: '+14155550100',
      From: '+14155550199',
    };
    const form = new URLSearchParams(status).toString();
    const signature = twilioSignature(`${PUBLIC_BASE_URL}/provider-webhooks/twilio/status`, status, TWILIO_TOKEN);
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature };
    const first = await post('/provider-webhooks/twilio/status', form, headers);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    expect(await (await post('/provider-webhooks/twilio/status', form, headers)).json()).toEqual({
      received: true,
      duplicate: true,
    });

    const recordingSid = `RE${'b'.repeat(32)}`;
    const recording = {
      AccountSid: ACCOUNT_SID,
      CallSid: callSid,
      RecordingSid: recordingSid,
      RecordingStatus: 'completed',
      RecordingUrl: `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT_SID}/Recordings/${recordingSid}`,
    };
    const recordingResponse = await post(
      '/provider-webhooks/twilio/recording',
      new URLSearchParams(recording).toString(),
      {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(
          `${PUBLIC_BASE_URL}/provider-webhooks/twilio/recording`,
          recording,
          TWILIO_TOKEN,
        ),
      },
    );
    expect(recordingResponse.status).toBe(200);

    const events = await publishedEvents([`${callSid}:no-answer`, recordingSid]);
    expect(events.filter((e) => e.data.provider === 'twilio').map((e) => [e.data.kind, e.data.event_id])).toEqual([
      ['call.status', `${callSid}:no-answer`],
      ['recording.status', recordingSid],
    ]);
    expect(events.find((e) => e.data.event_id === recordingSid)?.data.payload).toEqual(recording);
  });

  it('refuses a Twilio callback signed for another URL or account, with a changed parameter, or not a form', async () => {
    const params = { AccountSid: ACCOUNT_SID, CallSid: `CA${'c'.repeat(32)}`, CallStatus: 'busy' };
    const form = new URLSearchParams(params).toString();
    const otherUrl = twilioSignature(`${PUBLIC_BASE_URL}/provider-webhooks/twilio/recording`, params, TWILIO_TOKEN);
    const good = twilioSignature(`${PUBLIC_BASE_URL}/provider-webhooks/twilio/status`, params, TWILIO_TOKEN);
    const formType = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(
      (await post('/provider-webhooks/twilio/status', form, { ...formType, 'x-twilio-signature': otherUrl })).status,
    ).toBe(401);
    expect(
      (
        await post('/provider-webhooks/twilio/status', form.replace('busy', 'failed'), {
          ...formType,
          'x-twilio-signature': good,
        })
      ).status,
    ).toBe(401);
    expect((await post('/provider-webhooks/twilio/status', form, formType)).status).toBe(401);
    // Signed with our token, but about another account: the same answer as a bad signature.
    const elsewhere = { ...params, AccountSid: `AC${'2'.repeat(32)}` };
    const forElsewhere = await post('/provider-webhooks/twilio/status', new URLSearchParams(elsewhere).toString(), {
      ...formType,
      'x-twilio-signature': twilioSignature(
        `${PUBLIC_BASE_URL}/provider-webhooks/twilio/status`,
        elsewhere,
        TWILIO_TOKEN,
      ),
    });
    const badSignature = await post('/provider-webhooks/twilio/status', form, {
      ...formType,
      'x-twilio-signature': otherUrl,
    });
    expect(forElsewhere.status).toBe(401);
    expect(await forElsewhere.json()).toEqual(await badSignature.json());
    const json = await post('/provider-webhooks/twilio/status', JSON.stringify(params), {
      'content-type': 'application/json',
      'x-twilio-signature': good,
    });
    expect(json.status).toBe(415);
    expect(
      (await post('/provider-webhooks/twilio/elsewhere', form, { ...formType, 'x-twilio-signature': good })).status,
    ).toBe(404);
  });

  it('accepts a signed Retell call event once and refuses a stale or forged one', async () => {
    const body = JSON.stringify({
      event: 'call_analyzed',
      call: { call_id: 'call_e2e_1', to_number: '+14155550100', from_number: '+14155550199', duration_ms: 61000 },
    });
    const headers = { 'content-type': 'application/json', 'x-retell-signature': retellSignature(body, RETELL_KEY) };
    expect(await (await post('/provider-webhooks/retell', body, headers)).json()).toEqual({
      received: true,
      duplicate: false,
    });
    expect(await (await post('/provider-webhooks/retell', body, headers)).json()).toEqual({
      received: true,
      duplicate: true,
    });
    const stale = retellSignature(body, RETELL_KEY, new Date(Date.now() - 6 * 60_000));
    expect((await post('/provider-webhooks/retell', body, { ...headers, 'x-retell-signature': stale })).status).toBe(
      401,
    );
    const forged = retellSignature(body, 'key_someone_else');
    expect((await post('/provider-webhooks/retell', body, { ...headers, 'x-retell-signature': forged })).status).toBe(
      401,
    );

    const events = await publishedEvents(['call_e2e_1:call_analyzed']);
    expect(events.filter((e) => e.data.provider === 'retell')).toHaveLength(1);
    expect(events.find((e) => e.data.provider === 'retell')).toMatchObject({
      type: 'provider.retell.received',
      data: { event_id: 'call_e2e_1:call_analyzed', kind: 'call_analyzed' },
    });
  });

  it('answers 404 for a provider it does not know, and bounds the body', async () => {
    const unknown = await post('/provider-webhooks/paypal', '{}', { 'content-type': 'application/json' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'not_found' } });
    const huge = JSON.stringify({ id: 'evt_huge', type: 'x', padding: 'x'.repeat(600 * 1024) });
    const tooLarge = await post('/provider-webhooks/stripe', huge, {
      'content-type': 'application/json',
      'stripe-signature': stripeSignature(huge, STRIPE_SECRET),
    });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('refuses with 400 a signed event no column can hold (a NUL, JSON nested 3,000 deep), storing and publishing nothing', async () => {
    const signedStripe = (body: string) =>
      post('/provider-webhooks/stripe', body, {
        'content-type': 'application/json',
        'stripe-signature': stripeSignature(body, STRIPE_SECRET),
      });
    const checkout = (id: string, customer: string) =>
      JSON.stringify({
        id,
        object: 'event',
        type: 'checkout.session.completed',
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: 'cs_test_e2e', object: 'checkout.session', mode: 'setup', customer } },
      });
    const nul = await signedStripe(checkout('evt_e2e_nul', 'cus_\u0000'));
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({
      error: {
        code: 'invalid_request',
        message:
          "The Stripe event's field data.object.customer contains a NUL character (U+0000), which no field accepts.",
      },
    });
    const deep = await signedStripe(
      `{"id":"evt_e2e_deep","object":"event","type":"checkout.session.completed","data":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`,
    );
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({
      error: { code: 'invalid_request', message: 'The Stripe event nests arrays or objects more than 32 levels deep.' },
    });

    const callSid = `CA${'e'.repeat(32)}`;
    const twilioStatus = (from: string) => {
      const params = { AccountSid: ACCOUNT_SID, CallSid: callSid, CallStatus: 'completed', From: from };
      return post('/provider-webhooks/twilio/status', new URLSearchParams(params).toString(), {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(
          `${PUBLIC_BASE_URL}/provider-webhooks/twilio/status`,
          params,
          TWILIO_TOKEN,
        ),
      });
    };
    const form = await twilioStatus('+1415\u0000555');
    expect(form.status).toBe(400);
    expect(await form.json()).toMatchObject({
      error: { code: 'invalid_request', message: expect.stringContaining('field From contains a NUL character') },
    });

    // Nothing was recorded: the same event ids, clean, are taken in as new, and only they are published.
    for (const clean of [
      await signedStripe(checkout('evt_e2e_nul', 'cus_e2e')),
      await signedStripe(checkout('evt_e2e_deep', 'cus_e2e')),
      await twilioStatus('+14155550199'),
    ]) {
      expect(clean.status).toBe(200);
      expect(await clean.json()).toEqual({ received: true, duplicate: false });
    }
    const published = await publishedEvents(['evt_e2e_nul', 'evt_e2e_deep', `${callSid}:completed`]);
    const payloads = published
      .filter((e) => ['evt_e2e_nul', 'evt_e2e_deep', `${callSid}:completed`].includes(e.data.event_id))
      .map((e) => JSON.stringify(e.data.payload));
    expect(payloads).toHaveLength(3);
    expect(payloads.filter((payload) => payload.includes('\\u0000') || payload.includes('"a":'))).toEqual([]);
  });
});

describe('provider webhooks without provider secrets', () => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startSystem({ services: [] });
  });

  afterAll(async () => {
    await system?.stop();
  });

  it('answers 404 for every provider: nothing is taken in that cannot be verified', async () => {
    for (const path of ['/provider-webhooks/stripe', '/provider-webhooks/twilio/status', '/provider-webhooks/retell']) {
      const response = await fetch(`${system.publicUrl}${path}`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(404);
    }
  });
});
