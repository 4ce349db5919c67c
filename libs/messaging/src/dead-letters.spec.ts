import {
  DEFAULT_DELIVERY_BUDGET,
  afterFailure,
  backoffDelay,
  checkDeliveryBudget,
  deadLetterSubject,
  streamOwner,
} from './dead-letters';

describe('a durable consumer’s delivery budget', () => {
  const budget = { maxDeliver: 4, backoffMs: [1_000, 10_000] };

  it('waits the schedule’s n-th delay after the n-th failure, repeating the last one', () => {
    expect([1, 2, 3, 4].map((failures) => backoffDelay(budget, failures))).toEqual([1_000, 10_000, 10_000, 10_000]);
    expect(DEFAULT_DELIVERY_BUDGET.backoffMs.map((_, i) => backoffDelay(DEFAULT_DELIVERY_BUDGET, i + 1))).toEqual([
      1_000, 10_000, 60_000, 300_000,
    ]);
  });

  it('retries until maxDeliver charged deliveries failed, then dead-letters', () => {
    expect([1, 2, 3, 4, 5].map((charged) => afterFailure(budget, charged))).toEqual([
      { kind: 'retry', delayMs: 1_000 },
      { kind: 'retry', delayMs: 10_000 },
      { kind: 'retry', delayMs: 10_000 },
      { kind: 'dead-letter' },
      { kind: 'dead-letter' },
    ]);
    expect(afterFailure({ maxDeliver: 1, backoffMs: [5] }, 1)).toEqual({ kind: 'dead-letter' });
  });

  it('gives up within the default budget in about six minutes', () => {
    const waits = Array.from({ length: DEFAULT_DELIVERY_BUDGET.maxDeliver }, (_, i) =>
      afterFailure(DEFAULT_DELIVERY_BUDGET, i + 1),
    );
    expect(waits.at(-1)).toEqual({ kind: 'dead-letter' });
    const total = waits.reduce((sum, verdict) => sum + (verdict.kind === 'retry' ? verdict.delayMs : 0), 0);
    expect(total).toBe(371_000);
  });

  it('refuses a budget that would never give up or has no schedule, naming the consumer', () => {
    expect(() => checkDeliveryBudget('x-things', { maxDeliver: 0, backoffMs: [1] })).toThrow(
      'durable consumer x-things: maxDeliver must be a whole number of at least 1',
    );
    expect(() => checkDeliveryBudget('x-things', { maxDeliver: Infinity, backoffMs: [1] })).toThrow(/maxDeliver/);
    expect(() => checkDeliveryBudget('x-things', { maxDeliver: 3, backoffMs: [] })).toThrow(/backoffMs/);
    expect(() => checkDeliveryBudget('x-things', { maxDeliver: 3, backoffMs: [-1] })).toThrow(/backoffMs/);
    expect(checkDeliveryBudget('x-things', budget)).toBe(budget);
  });
});

describe('the dead-letter stream’s records', () => {
  it('names one subject per message and kind, apart from the replay requests', () => {
    expect(deadLetterSubject('letter', 'numbers-billing-talk-time', 12)).toBe(
      'dead-letters.v1.records.letter.numbers-billing-talk-time.12',
    );
    expect(deadLetterSubject('excused', 'numbers-billing-talk-time', '*')).not.toMatch(/^dead-letters\.v1\.replay\./);
  });

  it('finds the service that may replay a dead letter: its stream’s owner', () => {
    expect(streamOwner({ prefix: 'sb' }, 'SB_CALLS')).toBe('calls-media');
    expect(streamOwner({ prefix: 'sb' }, 'SB_PROVIDER')).toBe('gateway');
    expect(streamOwner({ prefix: 'sb' }, 'SB_BILLING')).toBe('numbers-billing');
    expect(streamOwner({ prefix: 'sb' }, 'OTHER_CALLS')).toBeUndefined();
  });
});
