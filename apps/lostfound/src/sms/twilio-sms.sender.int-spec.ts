import { createTwilioClient } from '@switchboard/providers';
import { TwilioStandIn } from '../../../../test/stand-ins/twilio/twilio-stand-in';
import { SmsRejected } from './sms.port';
import { TwilioSmsSender } from './twilio-sms.sender';

jest.setTimeout(30_000);

/** Texts through Twilio Messaging, against the Twilio stand-in. */
describe('TwilioSmsSender', () => {
  const twilio = new TwilioStandIn();
  let sender: TwilioSmsSender;

  beforeAll(async () => {
    const url = await twilio.start();
    const client = await createTwilioClient({
      accountSid: twilio.accountSid,
      authToken: twilio.authToken,
      apiBaseUrl: new URL(url),
    });
    sender = new TwilioSmsSender(client, { from: '+14155550100' });
  });

  afterAll(() => twilio.stop());

  it('sends one message from our number to the claimant', async () => {
    await sender.send({ to: '+14155550123', body: 'We may have your umbrella.', livemode: true });
    const sent = twilio.requests.find((request) => request.path.endsWith('/Messages.json'))!;
    expect(sent.path).toBe(`/2010-04-01/Accounts/${twilio.accountSid}/Messages.json`);
    expect(Object.fromEntries(sent.form)).toEqual({
      To: '+14155550123',
      From: '+14155550100',
      Body: 'We may have your umbrella.',
    });
    expect(twilio.messages).toHaveLength(1);
  });

  it('reads a refusal that will not change as rejected, and a 429 or 5xx as a failure to try again', async () => {
    twilio.faults.push('sms_invalid_to');
    await expect(sender.send({ to: '+14155550124', body: 'x', livemode: true })).rejects.toThrow(SmsRejected);
    twilio.faults.push('rate_limited');
    const busy = await sender.send({ to: '+14155550124', body: 'x', livemode: true }).catch((error: unknown) => error);
    expect(busy).not.toBeInstanceOf(SmsRejected);
    expect((busy as { status: number }).status).toBe(429);
    twilio.faults.push('server_error');
    await expect(sender.send({ to: '+14155550124', body: 'x', livemode: true })).rejects.not.toBeInstanceOf(
      SmsRejected,
    );
  });
});
