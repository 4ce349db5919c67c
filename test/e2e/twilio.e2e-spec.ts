import { LOGGER, type Logger } from '@switchboard/observability';
import { TwilioStandIn } from '../stand-ins/twilio/twilio-stand-in';
import { AdminClient, ApiSession, startSystem, type RunningSystem } from './support';

jest.setTimeout(90_000);

const PUBLIC_BASE_URL = 'https://api.switchboard.test';

/**
 * Issue 17's telephony and texts through Twilio (its API played by the stand-in): a live account's number is bought
 * from Twilio with its voice URL and status callback on our provider webhooks, released there; a live claimant is
 * texted through Twilio; a test account's numbers and texts stay with the simulated providers (ADRs 0083 and 0087).
 */
describe('numbers and texts through Twilio', () => {
  const twilio = new TwilioStandIn();
  let system: RunningSystem;
  let admin: AdminClient;
  const body = { business_phone: '+14155550123', area_code: '415' };

  beforeAll(async () => {
    const url = await twilio.start();
    twilio.stock('415', 5);
    system = await startSystem({
      env: {
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_API_BASE_URL: url,
        PUBLIC_BASE_URL,
        LOSTFOUND_SMS_PROVIDER: 'twilio',
        TWILIO_SMS_FROM: '+14155550100',
      },
    });
    admin = new AdminClient(system);
  });

  afterAll(async () => {
    await system?.stop();
    await twilio.stop();
  });

  it("buys a live account's number from Twilio, pointed at our provider webhooks, and releases it there", async () => {
    const session = await ApiSession.create(system);
    const created = await session.post('/numbers', body);
    expect(created.status).toBe(201);
    expect(created.body.phone_number).toBe('+14155550200');
    const owned = twilio.owned.find((number) => number.phone_number === created.body.phone_number)!;
    expect(owned).toMatchObject({
      voice_url: `${PUBLIC_BASE_URL}/provider-webhooks/twilio/voice`,
      status_callback: `${PUBLIC_BASE_URL}/provider-webhooks/twilio/status`,
    });
    expect((await session.delete(`/numbers/${created.body.id}`)).status).toBe(200);
    expect(twilio.owned.some((number) => number.phone_number === created.body.phone_number)).toBe(false);
  });

  it('answers 409 no_numbers when Twilio has none in the area code, and charges nothing', async () => {
    const session = await ApiSession.create(system, { balance_cents: 1_000 });
    const answer = await session.post('/numbers', { business_phone: '+19075550123' });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('no_numbers');
    expect((await admin.request('GET', `/admin/accounts/${session.accountId}`)).body.balance_cents).toBe(1_000);
  });

  it('answers 503 provider_unavailable when Twilio fails, and a retry with the same key buys once', async () => {
    const session = await ApiSession.create(system);
    twilio.faults.push('server_error');
    const failed = await session.post('/numbers', body, { 'Idempotency-Key': 'twilio-retry-1' });
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('provider_unavailable');
    const retried = await session.post('/numbers', body, { 'Idempotency-Key': 'twilio-retry-1' });
    expect(retried.status).toBe(201);
    expect(twilio.owned.filter((number) => number.phone_number === retried.body.phone_number)).toHaveLength(1);
  });

  it('refuses a number Twilio sells that is already in service on another account: no charge, one holder, a log line (issue 47)', async () => {
    const live = await ApiSession.create(system, { balance_cents: 1_000 });
    const test = await live.testMode();
    const held = await test.post('/numbers', { business_phone: '+15125550123', area_code: '512' });
    expect(held.status).toBe(201);
    // Twilio offers the very phone number the simulated pool handed out, then another one.
    twilio.forSale.set('512', [held.body.phone_number, '+15125550299']);
    const logger = system.services['numbers-billing']!.get<Logger>(LOGGER);
    const errors = jest.spyOn(logger, 'error');
    try {
      const refused = await live.post(
        '/numbers',
        { business_phone: '+15125550123', area_code: '512' },
        { 'Idempotency-Key': 'twilio-in-service-1' },
      );
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('provider_unavailable');
      expect(refused.body.error.message).toContain('already in service');
      expect(errors).toHaveBeenCalledWith(
        expect.objectContaining({
          account_id: live.accountId,
          phone_number: held.body.phone_number,
          held_by_number_id: held.body.id,
          held_by_account_id: test.accountId,
          given_back_to_provider: true,
        }),
        expect.stringContaining('already in service'),
      );
    } finally {
      errors.mockRestore();
    }
    // Nothing charged, nothing listed; the holder keeps it; Twilio has it back.
    expect((await admin.request('GET', `/admin/accounts/${live.accountId}`)).body.balance_cents).toBe(1_000);
    expect((await live.get('/numbers')).body.data).toEqual([]);
    expect((await test.get('/numbers')).body.data).toEqual([
      expect.objectContaining({ id: held.body.id, phone_number: held.body.phone_number, status: 'active' }),
    ]);
    expect(twilio.owned.some((number) => number.phone_number === held.body.phone_number)).toBe(false);

    // The retry with the same key buys another number, charged once.
    const retried = await live.post(
      '/numbers',
      { business_phone: '+15125550123', area_code: '512' },
      { 'Idempotency-Key': 'twilio-in-service-1' },
    );
    expect(retried.status).toBe(201);
    expect(retried.body.phone_number).toBe('+15125550299');
    expect((await admin.request('GET', `/admin/accounts/${live.accountId}`)).body.balance_cents).toBe(500);
  });

  it("buys a test account's numbers from the simulated provider, never from Twilio", async () => {
    const live = await ApiSession.create(system);
    const test = await live.testMode();
    const before = twilio.requests.length;
    const created = await test.post('/numbers', body);
    expect(created.status).toBe(201);
    expect(created.body.livemode).toBe(false);
    expect(twilio.requests.length).toBe(before);
    expect(twilio.owned.some((number) => number.phone_number === created.body.phone_number)).toBe(false);
  });

  it('texts a live claimant through Twilio and a test claimant through the simulated provider', async () => {
    const live = await ApiSession.create(system);
    const test = await live.testMode();
    for (const [session, phone] of [
      [live, '+14155550181'],
      [test, '+14155550182'],
    ] as const) {
      const location = await admin.request('POST', `/admin/accounts/${session.accountId}/locations`, { name: 'Depot' });
      expect(location.status).toBe(201);
      const claim = await session.post('/lostfound/claims', {
        location_id: location.body.id,
        claimant_name: 'Jane Smith',
        claimant_phone: phone,
        category: 'umbrella',
        description: 'red umbrella, wooden handle',
        color: 'red',
        lost_area: 'Gate B12',
        lost_date: '2026-11-17',
      });
      expect(claim.status).toBe(201);
      const item = await session.post('/lostfound/found-items', {
        location_id: location.body.id,
        category: 'umbrella',
        description: 'Red umbrella with a wooden handle',
        color: 'red',
        found_area: 'Gate B12',
        storage_ref: 'Bin 4',
        found_date: '2026-11-18',
      });
      expect(item.status).toBe(201);
    }
    for (let i = 0; i < 50 && !twilio.messages.some((m) => m.to === '+14155550181'); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(twilio.messages.filter((message) => message.to === '+14155550181')).toEqual([
      expect.objectContaining({ from: '+14155550100', body: expect.stringContaining('umbrella') }),
    ]);
    expect(twilio.messages.some((message) => message.to === '+14155550182')).toBe(false);
    const simulated = await admin.request('GET', `/admin/sms?to=${encodeURIComponent('+14155550182')}`);
    expect(simulated.body.data).toHaveLength(1);
    const notSimulated = await admin.request('GET', `/admin/sms?to=${encodeURIComponent('+14155550181')}`);
    expect(notSimulated.body.data).toHaveLength(0);
  });
});
