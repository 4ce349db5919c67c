import { createTwilioClient } from '@switchboard/providers';
import { TwilioStandIn } from '../../../../test/stand-ins/twilio/twilio-stand-in';
import { NoNumbersAvailable, ProviderUnavailable, type TelephonyProvider } from './telephony-provider.port';
import { TwilioTelephonyAdapter } from './twilio-telephony.adapter';

jest.setTimeout(30_000);

/** The Twilio telephony adapter against the Twilio stand-in: what it sends and how it reads Twilio's answers. */
describe('TwilioTelephonyAdapter', () => {
  const twilio = new TwilioStandIn();
  let adapter: TelephonyProvider;
  const urls = {
    voiceUrl: 'https://api.example.com/provider-webhooks/twilio/voice',
    statusCallback: 'https://api.example.com/provider-webhooks/twilio/status',
  };
  const buy = (areaCode: string, orderRef: string) => adapter.buyNumber({ areaCode, orderRef, livemode: true });

  beforeAll(async () => {
    const url = await twilio.start();
    const client = await createTwilioClient({
      accountSid: twilio.accountSid,
      authToken: twilio.authToken,
      apiBaseUrl: new URL(url),
    });
    adapter = new TwilioTelephonyAdapter(client, urls);
  });

  afterAll(() => twilio.stop());

  beforeEach(() => {
    twilio.requests.length = 0;
    twilio.faults.length = 0;
  });

  it('buys a local number of the area code, pointed at the agent and our status callback, named by the order', async () => {
    twilio.stock('415', 3);
    const { phoneNumber } = await buy('415', 'order-1');
    expect(phoneNumber).toBe('+14155550200');
    const purchase = twilio.requests.find((request) => request.method === 'POST')!;
    expect(purchase.path).toBe(`/2010-04-01/Accounts/${twilio.accountSid}/IncomingPhoneNumbers.json`);
    expect(Object.fromEntries(purchase.form)).toEqual({
      PhoneNumber: '+14155550200',
      FriendlyName: 'order-1',
      VoiceUrl: urls.voiceUrl,
      VoiceMethod: 'POST',
      StatusCallback: urls.statusCallback,
      StatusCallbackMethod: 'POST',
    });
    const search = twilio.requests.find((request) => request.path.endsWith('/AvailablePhoneNumbers/US/Local.json'))!;
    expect(search.query.get('AreaCode')).toBe('415');
  });

  it('answers the number already bought when the same order asks again: never two', async () => {
    twilio.stock('212', 3);
    const first = await buy('212', 'order-2');
    const again = await buy('212', 'order-2');
    expect(again).toEqual(first);
    expect(twilio.owned.filter((number) => number.friendly_name === 'order-2')).toHaveLength(1);
  });

  it('skips a number sold meanwhile, and says no numbers when the area code has none', async () => {
    twilio.stock('646', 2);
    // Another buyer takes the first number between our search and our purchase: Twilio answers 21422 for it.
    const search = twilio.forSale.get('646')!;
    const original = twilio.forSale.get.bind(twilio.forSale);
    let searched = false;
    twilio.forSale.get = (key: string) => {
      const value = original(key);
      if (key === '646' && searched) return value?.filter((phone) => phone !== search[0]);
      if (key === '646') searched = true;
      return value;
    };
    try {
      expect(await buy('646', 'order-3')).toEqual({ phoneNumber: search[1] });
    } finally {
      twilio.forSale.get = original;
    }
    await expect(buy('907', 'order-4')).rejects.toThrow(NoNumbersAvailable);
  });

  it('reads 429 and 5xx as a transient provider failure', async () => {
    twilio.stock('303', 2);
    twilio.faults.push('rate_limited');
    await expect(buy('303', 'order-5')).rejects.toThrow(ProviderUnavailable);
    twilio.faults.push('server_error');
    await expect(buy('303', 'order-6')).rejects.toThrow(/HTTP 500/);
  });

  it('releases a number, and releasing it again succeeds', async () => {
    twilio.stock('312', 1);
    const { phoneNumber } = await buy('312', 'order-7');
    await adapter.releaseNumber(phoneNumber, { livemode: true });
    expect(twilio.owned.some((number) => number.phone_number === phoneNumber)).toBe(false);
    await expect(adapter.releaseNumber(phoneNumber, { livemode: true })).resolves.toBeUndefined();
  });

  it('lists every number we own across pages, with the order that bought it', async () => {
    const owned = await adapter.listOwnedNumbers();
    expect(owned.length).toBe(twilio.owned.length);
    expect(owned.length).toBeGreaterThan(twilio.pageSize);
    expect(owned.map((number) => number.orderRef)).toEqual(twilio.owned.map((number) => number.friendly_name));
    expect(
      owned.every((number) => number.purchasedAt instanceof Date && !Number.isNaN(number.purchasedAt.getTime())),
    ).toBe(true);
  });

  it('reads a Twilio that does not answer in time as a transient failure', async () => {
    const impatient: TelephonyProvider = new TwilioTelephonyAdapter(
      await createTwilioClient(
        { accountSid: twilio.accountSid, authToken: twilio.authToken, apiBaseUrl: new URL(twilio.url) },
        { timeoutMs: 200 },
      ),
      urls,
    );
    twilio.faults.push('hang');
    await expect(impatient.buyNumber({ areaCode: '415', orderRef: 'order-8', livemode: true })).rejects.toThrow(
      ProviderUnavailable,
    );
  });
});
