/**
 * lostfound's settings, read and checked once at start (the database and NATS settings are read by
 * @switchboard/persistence and @switchboard/messaging).
 */
export interface LostfoundConfig {
  /** Which SMS adapter texts claimants. Only `simulated` exists: texts are kept in lostfound's database. */
  smsProvider: 'simulated';
  /** How often texts that could not be sent are tried again, in ms. */
  notifyRetryMs: number;
}

export const LOSTFOUND_CONFIG = Symbol('LOSTFOUND_CONFIG');

export function loadLostfoundConfig(env: NodeJS.ProcessEnv): LostfoundConfig {
  const provider = (env.LOSTFOUND_SMS_PROVIDER ?? 'simulated').trim() || 'simulated';
  if (provider !== 'simulated') {
    throw new Error(`LOSTFOUND_SMS_PROVIDER must be "simulated" (the only SMS adapter so far); got "${provider}"`);
  }
  const retry = Number(env.LOSTFOUND_NOTIFY_RETRY_MS ?? 10_000);
  if (!Number.isInteger(retry) || retry < 100 || retry > 3_600_000) {
    throw new Error('LOSTFOUND_NOTIFY_RETRY_MS must be an integer between 100 and 3600000');
  }
  return { smsProvider: provider, notifyRetryMs: retry };
}
