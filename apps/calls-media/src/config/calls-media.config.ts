import * as path from 'node:path';
import { loadTwilioConfig, type TwilioConfig } from '@switchboard/providers';
import { ConfigError, envNonNegativeInt, envPositiveInt } from '@switchboard/service-runtime';
import { CALLS_MEDIA_VARIABLES as V } from './variables';

/** Where recordings are kept: a directory (the default) or an S3-compatible bucket. */
export type RecordingStorageConfig =
  | { kind: 'filesystem'; directory: string }
  | { kind: 's3'; endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };

/** Every variable calls-media reads (besides the database and NATS ones its libraries read), checked at start. */
export interface CallsMediaConfig {
  storage: RecordingStorageConfig;
  /** How long a report for a number nobody owns (yet) waits for the number's events before it is discarded. */
  attributionGraceMs: number;
  /** How often waiting reports are tried again and expired ones discarded. */
  attributionSweepMs: number;
  /** How long the simulated provider's operator route waits for its report to be settled before answering. */
  simulatedSettleMs: number;
  /**
   * Twilio, to fetch the recordings of live calls (docs/adr/0083); undefined: Twilio's recording callbacks are
   * acknowledged and left alone.
   */
  twilio: TwilioConfig | undefined;
  /** How long an agent's call report waits for its Twilio recording before it is recorded without one. */
  recordingWaitMs: number;
  /** How often the retention sweep runs (and queued object deletions are retried). */
  retentionSweepMs: number;
  /** How often calls in progress past their `max_call_minutes` are closed as incomplete, and old live events purged. */
  liveCallsSweepMs: number;
}

const S3_VARIABLES = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

export function loadCallsMediaConfig(env: NodeJS.ProcessEnv = process.env): CallsMediaConfig {
  return {
    storage: storageConfig(env),
    attributionGraceMs: envPositiveInt(env, 'CALL_ATTRIBUTION_GRACE_MS', V.CALL_ATTRIBUTION_GRACE_MS.default),
    attributionSweepMs: envPositiveInt(env, 'CALL_ATTRIBUTION_SWEEP_MS', V.CALL_ATTRIBUTION_SWEEP_MS.default),
    simulatedSettleMs: envNonNegativeInt(env, 'SIMULATED_CALL_SETTLE_MS', V.SIMULATED_CALL_SETTLE_MS.default),
    twilio: loadTwilioConfig(env, env.NODE_ENV === 'production'),
    recordingWaitMs: envNonNegativeInt(env, 'CALL_RECORDING_WAIT_MS', V.CALL_RECORDING_WAIT_MS.default),
    retentionSweepMs: envPositiveInt(env, 'RETENTION_SWEEP_MS', V.RETENTION_SWEEP_MS.default),
    liveCallsSweepMs: envPositiveInt(env, 'LIVE_CALLS_SWEEP_MS', V.LIVE_CALLS_SWEEP_MS.default),
  };
}

function storageConfig(env: NodeJS.ProcessEnv): RecordingStorageConfig {
  const set = S3_VARIABLES.filter((name) => env[name]?.trim());
  if (set.length === 0) {
    const dataDir = env.DATA_DIR?.trim() || V.DATA_DIR.default;
    return { kind: 'filesystem', directory: path.resolve(dataDir, 'calls-media', 'recordings') };
  }
  if (set.length < S3_VARIABLES.length) {
    const missing = S3_VARIABLES.filter((name) => !set.includes(name));
    throw new ConfigError(`S3 recording storage needs ${S3_VARIABLES.join(', ')}; missing: ${missing.join(', ')}`);
  }
  const endpoint = env.S3_ENDPOINT!.trim();
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConfigError(`S3_ENDPOINT must be an absolute http(s) URL (got "${endpoint}")`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError('S3_ENDPOINT must be an http:// or https:// URL');
  const bucket = env.S3_BUCKET!.trim();
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new ConfigError(`S3_BUCKET "${bucket}" is not a valid bucket name`);
  const region = env.S3_REGION?.trim() || V.S3_REGION.default;
  if (!/^[a-z0-9-]+$/.test(region)) throw new ConfigError(`S3_REGION "${region}" is not a region name`);
  return {
    kind: 's3',
    endpoint: url.toString().replace(/\/+$/, ''),
    bucket,
    region,
    accessKeyId: env.S3_ACCESS_KEY_ID!.trim(),
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!.trim(),
  };
}
