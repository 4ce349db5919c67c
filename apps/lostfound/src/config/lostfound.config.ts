import { loadTwilioConfig, type TwilioConfig } from '@switchboard/providers';
import { ConfigError, envIntBetween } from '@switchboard/service-runtime';
import { LOSTFOUND_VARIABLES as V } from './variables';

/**
 * lostfound's settings, read and checked once at start (the database and NATS settings are read by
 * @switchboard/persistence and @switchboard/messaging).
 */
/** Who Twilio texts come from: a Twilio number of ours, or a Messaging Service that picks one. */
export type TwilioSender = { from: string } | { messagingServiceSid: string };

export interface LostfoundConfig {
  /**
   * Which SMS adapter texts claimants (`LOSTFOUND_SMS_PROVIDER`): `simulated` (the default: texts are kept in
   * lostfound's database) or `twilio` (live accounts' texts through Twilio Messaging, docs/adr/0083).
   */
  sms: { provider: 'simulated' } | { provider: 'twilio'; twilio: TwilioConfig; sender: TwilioSender };
  /** How often texts that could not be sent are tried again, in ms. */
  notifyRetryMs: number;
  /**
   * Texts to claimants one account may cause per UTC day; logging an item that would go beyond is refused with
   * 429 `text_limit` (docs/adr/0053-lostfound-search-matching-and-texts.md).
   */
  textsPerAccountPerDay: number;
  /** Texts one claimant phone may get per UTC day, all accounts together; beyond, that claimant is not texted. */
  textsPerPhonePerDay: number;
}

export function loadLostfoundConfig(env: NodeJS.ProcessEnv): LostfoundConfig {
  return {
    sms: smsConfig(env),
    notifyRetryMs: envIntBetween(env, 'LOSTFOUND_NOTIFY_RETRY_MS', V.LOSTFOUND_NOTIFY_RETRY_MS.default, 100, 3_600_000),
    textsPerAccountPerDay: envIntBetween(
      env,
      'LOSTFOUND_SMS_ACCOUNT_DAILY_LIMIT',
      V.LOSTFOUND_SMS_ACCOUNT_DAILY_LIMIT.default,
      1,
      1_000_000,
    ),
    textsPerPhonePerDay: envIntBetween(
      env,
      'LOSTFOUND_SMS_PHONE_DAILY_LIMIT',
      V.LOSTFOUND_SMS_PHONE_DAILY_LIMIT.default,
      1,
      1_000,
    ),
  };
}

function smsConfig(env: NodeJS.ProcessEnv): LostfoundConfig['sms'] {
  const provider =
    (env.LOSTFOUND_SMS_PROVIDER ?? V.LOSTFOUND_SMS_PROVIDER.default).trim() || V.LOSTFOUND_SMS_PROVIDER.default;
  if (provider === 'simulated') return { provider };
  if (provider !== 'twilio')
    throw new ConfigError(`LOSTFOUND_SMS_PROVIDER must be "simulated" or "twilio"; got "${provider}"`);
  const production = env.NODE_ENV === 'production';
  const twilio = loadTwilioConfig(env, production);
  if (!twilio)
    throw new ConfigError('LOSTFOUND_SMS_PROVIDER=twilio needs Twilio; missing: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN');
  const from = env.TWILIO_SMS_FROM?.trim();
  const service = env.TWILIO_MESSAGING_SERVICE_SID?.trim();
  if (from && service) throw new ConfigError('Set one of TWILIO_SMS_FROM and TWILIO_MESSAGING_SERVICE_SID, not both');
  if (service) {
    if (!/^MG[0-9a-f]{32}$/.test(service))
      throw new ConfigError('TWILIO_MESSAGING_SERVICE_SID must be a Messaging Service SID (MG and 32 hex digits)');
    return { provider, twilio, sender: { messagingServiceSid: service } };
  }
  if (!from)
    throw new ConfigError(
      'Texts through Twilio need a sender; missing: TWILIO_SMS_FROM (a Twilio number, E.164) or TWILIO_MESSAGING_SERVICE_SID',
    );
  if (!/^\+[1-9]\d{6,14}$/.test(from)) throw new ConfigError('TWILIO_SMS_FROM must be a phone number in E.164 (+1...)');
  return { provider, twilio, sender: { from } };
}
