import { tableRows } from '../lib/table-rows';
import { report } from './report.mjs';

const cells = (text: string, first: string) => tableRows(text).filter((row) => row[0] === first);

describe("the fault tests' report", () => {
  const kill = {
    test: 'kill',
    name: 'kill -9 dispatcher, calls-media, numbers-billing',
    sent: 600,
    accepted: 483,
    refused: 117,
    refused_by_code: { '503 service_unavailable': 117 },
    refused_answered_after: { p50_ms: 1234, max_ms: 30_000 },
    delivered: 483,
    lost_by_check: { delivery: 0, calls_list: 0, billing: 0 },
    duplicated_by_check: { delivery: 2, calls_list: 0, billing: 0 },
    recorded_despite_error: 1,
    delivered_despite_error: 1,
    delivery_latency: { p50_ms: 41.6, p99_ms: 2500.4 },
    drain_s: 3.21,
    faults: [{ at_s: 6, fault: 'kill -9 calls-media, restart after 2 s', healthy_after_restart_s: 1.2 }],
    lost: 0,
    duplicated: 2,
  };

  it('prints each flow test with its refusals, its checks, its faults and a summary of every test', () => {
    const text = report({
      seconds: 120,
      tests: [
        kill,
        { test: 'nats', name: 'nats', error: 'Error: nats-server did not start\n  at x', lost: NaN, duplicated: NaN },
      ],
    });
    expect(cells(text, kill.name)[0]).toEqual([
      kill.name,
      '600',
      '483',
      '117 (503 service_unavailable: 117; answered after p50 1.2 s, max 30.0 s)',
      '483',
      '0 / 0 / 0',
      '2 / 0 / 0',
      '1 (1 delivered)',
      '42 / 2500',
      '3.2',
    ]);
    expect(cells(text, 'nats')[0].slice(0, 3)).toEqual(['nats', 'ERROR', 'Error: nats-server did not start']);
    expect(text).toContain('  kill: t=6 s kill -9 calls-media, restart after 2 s (healthy 1.2 s after start)');
    expect(cells(text, kill.name)[1]).toEqual([kill.name, '0', '2']);
    expect(cells(text, 'nats')[1]).toEqual(['nats', 'ERROR', 'ERROR']);
  });

  it("prints the provisions' rules, answers and balance", () => {
    const run = {
      name: '1000 concurrent provisions, balance covers 2',
      binding_rule: 'balance ($5 each)',
      expected_successes: 2,
      answered_201: 2,
      answers_by_code: { 201: 2, '402 insufficient_balance': 998 },
      listed: 2,
      charged: 2,
      balance_before_cents: 1000,
      balance_after_cents: 0,
      lost: 0,
      duplicated: 0,
      rule_broken: false,
      seconds: 4.5,
      answer_ms: { p50_ms: 812.3, p99_ms: 3999.9 },
    };
    const text = report({ seconds: 5, tests: [{ test: 'provisions', runs: [run], lost: 0, duplicated: 0 }] });
    expect(cells(text, run.name)[0].slice(4)).toEqual([
      '201: 2, 402 insufficient_balance: 998',
      '2',
      '2',
      '10.00 -> 0.00',
      '0',
      '0',
      'no',
      '4.5',
      '812 / 4000',
    ]);
  });
});
