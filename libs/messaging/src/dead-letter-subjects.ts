/**
 * The dead-letter stream, below the deployment prefix like the event streams. It holds three kinds of record, one
 * subject per message and kind (`<kind>.<durable>.<stream sequence>`), only the latest kept of each:
 * - `letter`: a message its durable consumer gave up on (`DeadLetterView` without `replayed_at`);
 * - `excused`: how many of a message's deliveries were not its fault (a database outage, `RetryLater`), so that the
 *   consumer charges the message only with the others (JetStream counts every delivery);
 * - `replayed`: that an operator republished a dead letter, so a second replay sends nothing.
 */
export const DEAD_LETTERS_STREAM = 'DEAD_LETTERS';
/** Below the prefix; apart from the replay subjects (`dead-letters.v1.replay.<service>`), which the stream must not hold. */
export const DEAD_LETTERS_SUBJECT = 'dead-letters.v1.records';
export type DeadLetterRecordKind = 'letter' | 'excused' | 'replayed';

/** The subject of one record (below the prefix: `rpcSubject` adds it); `durable` and `seq` may be wildcards. */
export function deadLetterSubject(kind: DeadLetterRecordKind, durable: string, seq: number | '*' | '>'): string {
  return `${DEAD_LETTERS_SUBJECT}.${kind}.${durable}.${seq}`;
}
