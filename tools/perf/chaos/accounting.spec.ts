import { deliveryAccounting, provisionsVerdict, receiverKind, sweepVerdict, totals } from './accounting.mjs';

const arrival = (call_sid: string, received: number, extra: object = {}) => ({
  call_sid,
  number_id: 'num_1',
  handled: true,
  valid: true,
  received,
  port: 4001,
  ...extra,
});

describe('the accounting of calls under faults', () => {
  const traffic = {
    sent: 5,
    accepted: new Map([
      ['CA1', { sent: 1000 }],
      ['CA2', { sent: 1000 }],
      ['CA3', { sent: 1000 }],
    ]),
    refused: [
      { status: 503, code: 'service_unavailable', answered_after_ms: 20 },
      { status: 0, code: 'client_timeout', answered_after_ms: 40_000 },
    ],
  };
  const result = deliveryAccounting({
    traffic,
    arrivals: [
      arrival('CA1', 1100),
      arrival('CA1', 1900), // again after a crash: at least once
      arrival('CA2', 1300),
      arrival('CA2', 1200, { handled: false, valid: false }),
      arrival('CA9', 1500), // recorded although its report was answered with an error
      arrival('CA1', 1100, { number_id: 'num_other' }),
    ],
    numberIds: new Set(['num_1']),
    listed: new Map([
      ['CA1', 1],
      ['CA2', 2],
      ['CA3', 1],
      ['CA9', 1],
    ]),
    billed: new Map([
      ['CA1', 1],
      ['CA2', 1],
      ['CA9', 1],
    ]),
  });

  it('counts each accepted call not delivered, not listed or not billed as lost, and what came twice', () => {
    expect(result).toMatchObject({ sent: 5, accepted: 3, refused: 2, delivered: 2, invalid_signatures: 1 });
    expect(result.lost_by_check).toEqual({ delivery: 1, calls_list: 0, billing: 1 });
    expect(result.duplicated_by_check).toEqual({ delivery: 1, calls_list: 1, billing: 0 });
    expect(result).toMatchObject({ recorded_despite_error: 1, delivered_despite_error: 1 });
    expect(result.refused_by_code).toEqual({ '503 service_unavailable': 1, '0 client_timeout': 1 });
    expect(result.evidence).toMatchObject({
      not_delivered: ['CA3'],
      not_billed: ['CA3'],
      delivered_twice: [['CA1', 2]],
    });
    expect(totals(result)).toEqual({ lost: 2, duplicated: 2 });
  });

  it("times each delivery from its report's sending to its first handled arrival", () => {
    expect(result.delivery_latency).toMatchObject({ count: 2, p50_ms: 100, max_ms: 300 });
  });
});

describe('bad receivers', () => {
  const accepted = new Map([
    ['CA1', { sent: 1000 }],
    ['CA2', { sent: 1000 }],
  ]);
  const attempt = (n: number, status_code: number | null) => ({ attempt: n, status_code });

  it('count the attempt each call was delivered at, and what the receiver was sent', () => {
    const kind = receiverKind({
      kind: { name: 'resets the first two attempts', expect: 'delivered at attempt 3' },
      sids: ['CA1', 'CA2'],
      port: 4001,
      arrivals: [arrival('CA1', 1500, { handled: false }), arrival('CA1', 2500), arrival('CA2', 1800)],
      log: new Map([
        ['CA1', [attempt(1, null), attempt(2, null), attempt(3, 204)]],
        ['CA2', [attempt(1, 204)]],
      ]),
      accepted,
    });
    expect(kind).toMatchObject({ events: 2, delivered: 2, lost: 0, duplicated: 0, requests_seen_by_receiver: 3 });
    expect(kind.attempts).toEqual({ 3: 1, 1: 1 });
    expect(kind.delivered_at_attempt).toEqual({ 3: 1, 1: 1 });
    expect(kind.latency).toMatchObject({ count: 2, max_ms: 1500 });
  });

  it('lose a call to a receiver that never answers only when it was given up before 5 attempts', () => {
    const kind = receiverKind({
      kind: { name: 'hangs for good', expect: 'never delivered', never: true },
      sids: ['CA1', 'CA2'],
      port: 4005,
      arrivals: [],
      log: new Map([['CA1', [1, 2, 3, 4, 5].map((n) => attempt(n, null))]]),
      accepted,
    });
    expect(kind).toMatchObject({ delivered: 0, lost: 1, attempts: { 5: 1, 0: 1 } });
  });
});

describe('concurrent provisions', () => {
  const charge = (id: string) => ({ reference: `number_month:${id}` });
  const answers = [
    { status: 201, id: 'num_1' },
    { status: 201, id: 'num_2' },
    { status: 402, code: 'insufficient_balance' },
  ];

  it('hold when every 201 is listed and charged once, within the rules', () => {
    const verdict = provisionsVerdict({
      answers,
      listed: [{ id: 'num_1' }, { id: 'num_2' }],
      charges: [charge('num_1'), charge('num_2')],
      balanceAfterCents: 0,
      covers: 2,
      concurrent: 1000,
    });
    expect(verdict).toMatchObject({ binding_rule: 'balance ($5 each)', expected_successes: 2, answered_201: 2 });
    expect(verdict).toMatchObject({ lost: 0, duplicated: 0, rule_broken: false, below_allowance: 0 });
    expect(verdict.answers_by_code).toEqual({ 201: 2, '402 insufficient_balance': 1 });
  });

  it('lose an unlisted 201, duplicate a number nobody was told of or charged twice, break a rule by overselling', () => {
    const verdict = provisionsVerdict({
      answers,
      listed: [{ id: 'num_2' }, { id: 'num_3' }, { id: 'num_4' }, { id: 'num_5' }],
      charges: [charge('num_2'), charge('num_2'), charge('num_3')],
      balanceAfterCents: 500,
      covers: 10,
      concurrent: 1000,
    });
    expect(verdict).toMatchObject({ expected_successes: 3, lost: 1, duplicated: 4, rule_broken: true });
    expect(verdict.detail).toEqual({
      created_but_not_listed_or_charged: ['num_1'],
      listed_without_a_201: ['num_3', 'num_4', 'num_5'],
      double_charges: 1,
    });
  });
});

describe('a retention sweep killed midway', () => {
  const left = { recordings: 0, transcripts: 0, objects: 0, queued: 0 };

  it('holds when the two sweeps together deleted every call once', () => {
    expect(sweepVerdict({ calls: 6000, byFirst: 1000, bySecond: 5000, secondClaimed: 5000, left })).toEqual({
      lost: 0,
      duplicated: 0,
      interrupted: true,
    });
  });

  it('loses what is left and counts a call both sweeps claimed', () => {
    const verdict = sweepVerdict({
      calls: 6000,
      byFirst: 6000,
      bySecond: 3,
      secondClaimed: 5,
      left: { ...left, objects: 2, queued: 1 },
    });
    expect(verdict).toEqual({ lost: 3, duplicated: 5, interrupted: false });
  });
});
