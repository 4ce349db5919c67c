// What both API floors answer for a page of rows: the JSON the gateway answers for GET /v1/numbers and GET /v1/calls
// (the benchmark checks it is the same, `sameAnswer` in bench/api.mjs, before anything is measured); and how they
// find the key they answer for.
import { createHash } from 'node:crypto';

/**
 * The hash the floors look an API key up by, as the gateway does (`bearerToken` and `hashSecret`): the credentials of
 * a `Bearer` authorization header, the scheme in any case, as SHA-256 hex; undefined when there are none.
 */
export function keyHash(authorization) {
  const bearer = /^Bearer +(\S+)$/i.exec(authorization?.trim() ?? '');
  return bearer ? createHash('sha256').update(bearer[1]).digest('hex') : undefined;
}

/** The page size the services use when no `limit` is given; the statements read one more row to tell `has_more`. */
export const PAGE = 50;

export const numberView = (row) => ({
  id: `num_${row.id}`,
  phone_number: row.phone_number,
  business_phone: row.business_phone,
  status: row.status,
  webhook_url: row.webhook_url,
  webhook_events: ['call.completed', ...row.webhook_events],
  max_call_minutes: row.max_call_minutes,
  created_at: row.created_at.toISOString(),
  livemode: true,
});

/** `CALL_SENTIMENTS` of libs/contracts. */
const SENTIMENTS = new Set(['positive', 'neutral', 'negative', 'unknown']);

export const callView = (row) => ({
  id: row.id,
  number_id: row.number_id,
  phone_number: row.phone_number,
  caller: row.caller,
  direction: row.direction,
  status: row.status,
  outcome: row.outcome,
  duration_sec: row.duration_sec,
  started_at: row.started_at.toISOString(),
  has_recording: row.recording_key !== null,
  has_transcript: row.has_transcript,
  // calls-media's `toView`: the agent's analysis from the statement's columns (the sentiment as `sentimentOf` of
  // libs/contracts reads it, which keeps every value the service stores).
  analysis: {
    summary: row.summary,
    sentiment: SENTIMENTS.has(row.sentiment) ? row.sentiment : 'unknown',
    successful: row.successful,
    custom: row.custom_analysis ?? {},
  },
  recording_deletion: deletion(row.recording_deleted_at, row.recording_deleted_by),
  transcript_deletion: deletion(row.transcript_deleted_at, row.transcript_deleted_by),
  livemode: true,
});

/** calls-media's `deletionOf`: who deleted a call's recording or transcript, and when; null while it is kept. */
const deletion = (at, by) => (at ? { deleted_at: at.toISOString(), deleted_by: by ?? 'retention' } : null);

/** A list's answer from the statement's rows (at most PAGE + 1 of them). */
export const listPage = (rows, view) => ({
  data: rows.slice(0, PAGE).map(view),
  has_more: rows.length > PAGE,
  livemode: true,
});
