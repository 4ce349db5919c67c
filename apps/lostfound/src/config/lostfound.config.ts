import { ConfigError, envIntBetween } from '@switchboard/service-runtime';

/**
 * lostfound's settings, read and checked once at start (the database and NATS settings are read by
 * @switchboard/persistence and @switchboard/messaging).
 */
export interface LostfoundConfig {
  /** Which SMS adapter texts claimants. Only `simulated` exists: texts are kept in lostfound's database. */
  smsProvider: 'simulated';
  /** How often texts that could not be sent are tried again, in ms. */
  notifyRetryMs: number;
  /**
   * Texts to claimants one account may cause per UTC day; logging an item that would go beyond is refused with
   * 429 `text_limit` (docs/adr/0053-lostfound-texting-limits.md).
   */
  textsPerAccountPerDay: number;
  /** Texts one claimant phone may get per UTC day, all accounts together; beyond, that claimant is not texted. */
  textsPerPhonePerDay: number;
}

export function loadLostfoundConfig(env: NodeJS.ProcessEnv): LostfoundConfig {
  const provider = (env.LOSTFOUND_SMS_PROVIDER ?? 'simulated').trim() || 'simulated';
  if (provider !== 'simulated') {
    throw new ConfigError(
      `LOSTFOUND_SMS_PROVIDER must be "simulated" (the only SMS adapter so far); got "${provider}"`,
    );
  }
  return {
    smsProvider: provider,
    notifyRetryMs: envIntBetween(env, 'LOSTFOUND_NOTIFY_RETRY_MS', 10_000, 100, 3_600_000),
    textsPerAccountPerDay: envIntBetween(env, 'LOSTFOUND_SMS_ACCOUNT_DAILY_LIMIT', 200, 1, 1_000_000),
    textsPerPhonePerDay: envIntBetween(env, 'LOSTFOUND_SMS_PHONE_DAILY_LIMIT', 3, 1, 1_000),
  };
}
