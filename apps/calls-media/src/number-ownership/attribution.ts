import type { Selectable } from 'kysely';
import type { NumberState } from '../generated/kysely/database';

/**
 * One state of a phone number as calls-media keeps it (a `number_states` row, without when it arrived).
 */
export type NumberOwnershipState = Omit<Selectable<NumberState>, 'received_at'>;

export type Attribution =
  /** The number was the account's and its agent was answering: the call is theirs. */
  | { kind: 'owned'; state: NumberOwnershipState }
  /** The number was the account's but paused (past_due): the agent did not answer, no call is recorded. */
  | { kind: 'paused'; state: NumberOwnershipState }
  /** Nobody we know of owned the number then (unknown, not yet provisioned, or released): it may be later. */
  | { kind: 'unowned' }
  /**
   * Two numbers held the phone number at once, so the owner cannot be told: the call goes to neither. Only data from
   * before the one-number-in-service rule (or a release still on its way here) can say so (ADR 0121).
   */
  | { kind: 'ambiguous'; states: NumberOwnershipState[] };

export interface CallTimes {
  startedAt: Date;
  /** When the report reached calls-media: numbers provisioned after it cannot have taken the call. */
  reportedAt: Date;
}

interface Tenure {
  numberId: string;
  states: NumberOwnershipState[];
  from: number;
  until: number;
}

/**
 * Who a call belongs to (docs/adr/0121-calls-and-recordings.md). Pure: given
 * every state calls-media knows for the phone number.
 * - A call that started within a tenure (from the number's first known state to its release) is that tenure's: its
 *   owner held the number when it rang, even if the report comes after they released it.
 * - A start in a gap after a release belongs to nobody.
 * - A start before every tenure (a provider's clock, or a simulated `started_at`, a little off) goes to the tenure in
 *   force when the report arrived, never to an owner who had released the number by then; with none in force it
 *   waits (a state on its way may show one).
 * - A number provisioned after the report arrived never takes it.
 * - Two tenures that could both take it: ambiguous, never chosen between silently.
 */
export function attributeCall(states: NumberOwnershipState[], call: CallTimes): Attribution {
  const started = call.startedAt.getTime();
  const reported = call.reportedAt.getTime();
  const tenures = tenuresOf(states).filter((t) => t.from <= reported);
  let owners = tenures.filter((t) => t.from <= started && t.until > started);
  if (owners.length === 0) {
    if (tenures.some((t) => t.from <= started)) return { kind: 'unowned' };
    owners = tenures.filter((t) => t.until > reported);
  }
  if (owners.length === 0) return { kind: 'unowned' };
  if (owners.length > 1) return { kind: 'ambiguous', states: owners.map((t) => stateAt(t, started)) };
  const state = stateAt(owners[0], started);
  return state.answering ? { kind: 'owned', state } : { kind: 'paused', state };
}

/**
 * Each number id's time with its owner: from its first known live state until its release (if any). A number
 * known only by its release (events delivered out of order) has no known start yet and is left out.
 */
function tenuresOf(states: NumberOwnershipState[]): Tenure[] {
  const byNumber = new Map<string, NumberOwnershipState[]>();
  for (const state of states) {
    const list = byNumber.get(state.number_id) ?? [];
    list.push(state);
    byNumber.set(state.number_id, list);
  }
  const tenures: Tenure[] = [];
  for (const [numberId, list] of byNumber) {
    list.sort(compareStates);
    const live = list.filter((s) => s.status !== 'released');
    if (live.length === 0) continue;
    const released = list.find((s) => s.status === 'released');
    tenures.push({
      numberId,
      states: live,
      from: live[0].changed_at.getTime(),
      until: released ? released.changed_at.getTime() : Number.POSITIVE_INFINITY,
    });
  }
  return tenures;
}

/** The live state in effect at `time` (the first one when `time` is before all of them). */
function stateAt(tenure: Tenure, time: number): NumberOwnershipState {
  let current = tenure.states[0];
  for (const state of tenure.states) {
    if (state.changed_at.getTime() <= time) current = state;
  }
  return current;
}

function compareStates(a: NumberOwnershipState, b: NumberOwnershipState): number {
  const byTime = a.changed_at.getTime() - b.changed_at.getTime();
  if (byTime !== 0) return byTime;
  return a.version < b.version ? -1 : a.version > b.version ? 1 : 0;
}
