import { createHash } from 'node:crypto';

/** Namespace of calls-media's name-based UUIDs (fixed forever: changing it would re-id every event). */
const NAMESPACE = Buffer.from('6b1f3c2e9a4d4f0b8c7e5a2d1f0e9c8b', 'hex');

/**
 * The id of a call's `call.completed` envelope: a name-based UUID (version 5, RFC 9562) of the call SID. The
 * same call always gets the same id, so JetStream drops a republished event by message id and consumers can
 * de-duplicate on it (docs/adr/0121-calls-and-recordings.md).
 */
export function callCompletedEventId(callSid: string): string {
  return eventIdOf('call.completed', callSid);
}

/** The id of a call's `call.lost_item_reported` envelope, made the same way (docs/adr/0079). */
export function lostItemReportedEventId(callSid: string): string {
  return eventIdOf('call.lost_item_reported', callSid);
}

/** The id of a call's `call.started` envelope (docs/live-calls.md): a start reported twice is one event. */
export function callStartedEventId(callSid: string): string {
  return eventIdOf('call.started', callSid);
}

/** The id of a call's `call.updated` envelope: a call is corrected at most once (docs/live-calls.md). */
export function callUpdatedEventId(callSid: string): string {
  return eventIdOf('call.updated', callSid);
}

function eventIdOf(type: string, callSid: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(`${type}/${callSid}`, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
