import type { Selectable } from 'kysely';
import type { NumberState } from '../generated/kysely/database';

/**
 * Who a call belongs to: the account that owned the called number when the call started
 * (docs/adr/0020-call-ownership.md). Pure: given every state calls-media knows for the phone number.
 */
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
  | { kind: 'unowned' };

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

export function attributeCall(states: NumberOwnershipState[], call: CallTimes): Attribution {
  const started = call.startedAt.getTime();
  const tenures = tenuresOf(states);
  const candidates = tenures.filter((t) => t.from <= call.reportedAt.getTime() && t.until > started);
  const covering = candidates.filter((t) => t.from <= started).sort((a, b) => b.from - a.from)[0];
  let chosen = covering;
  if (!chosen) {
    // A start before the number ever existed here (a provider clock or a simulated time a little off) goes to
    // its first owner, but a start in a gap after a release belongs to nobody.
    if (tenures.some((t) => t.from <= started)) return { kind: 'unowned' };
    chosen = candidates.sort((a, b) => a.from - b.from)[0];
    if (!chosen) return { kind: 'unowned' };
  }
  const state = stateAt(chosen, started);
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
