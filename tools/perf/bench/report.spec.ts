import {
  apiReport,
  connectionLine,
  countRefusal,
  diagnosticsReport,
  diagnosticsVariants,
  eventsReport,
  eventsVerdicts,
  halfRate,
  lostfoundTable,
  memoryTable,
  refusalLine,
  routeVerdicts,
  startupReport,
  startupResult,
  summarizeRun,
} from './report.mjs';
import { rowOf } from '../lib/table-rows';

describe('the API benchmark', () => {
  const m = (rps: number, p99 = NaN) => ({ rps, p99_ms: p99 });
  const maxRounds = [
    { same_parts: m(1000), floor: m(2000), system: m(950) },
    { same_parts: m(1000), floor: m(2500), system: m(800) },
    { same_parts: m(900), floor: m(1800), system: m(990) },
  ];
  const halfRounds = [
    { same_parts: m(0, 20), system: m(0, 30) },
    { same_parts: m(0, 10), system: m(0, 40) },
    { same_parts: m(0, 25), system: m(0, 25) },
  ];

  it("measures the p99 at half the system's rate in the median round against the bare floor", () => {
    // Ratios to the bare floor 0.475, 0.32, 0.55: the median round is the first.
    expect(halfRate(maxRounds)).toBe(475);
  });

  it("judges each floor by its own median round's share, and the p99 by the median factor", () => {
    const { floor, same_parts } = routeVerdicts(maxRounds, halfRounds);
    expect(floor).toMatchObject({ ratio: 0.475, system_rps: 950, floor_rps: 2000 });
    expect(same_parts).toMatchObject({ ratio: 0.95, pair_ratios: [0.95, 0.8, 1.1], pair_p99_factors: [1.5, 4, 1] });
    expect(same_parts).toMatchObject({ p99_factor_at_half_rate: 1.5, system_p99_ms: 30, floor_p99_ms: 20 });
  });

  it('prints each route against both floors, the hops, memory and the guards', () => {
    const { floor, same_parts } = routeVerdicts(maxRounds, halfRounds);
    const memory = { gateway: { mean_mib: 120, max_mib: 180 } };
    const text = apiReport({
      connections: 32,
      duration_s: 10,
      pairs: 3,
      same_parts_verdict: { numbers: same_parts },
      floor_verdict: { numbers: floor },
      floor: { numbers: { max_rounds: maxRounds, half_rate: 475 } },
      hops: { healthz: { label: 'gateway GET /healthz', p50_ms: 0.412, p99_ms: 1.5 } },
      memory_idle: memory,
      memory_idle_settled: memory,
      memory_under_api_load: memory,
    });
    expect(rowOf(text, 'GET /v1/numbers')?.slice(0, 10)).toEqual([
      'GET /v1/numbers',
      '950',
      '1,000',
      '2,000',
      '95.0% (95.0%, 80.0%, 110.0%)',
      '47.5% (47.5%, 32.0%, 55.0%)',
      '475',
      '30',
      '20',
      '1.50x (1.50, 4.00, 1.00)',
    ]);
    expect(rowOf(text, 'gateway GET /healthz')).toEqual(['gateway GET /healthz', '0.41', '1.50']);
    expect(rowOf(text, 'gateway')).toEqual(['gateway', '120', '120', '180']);
    expect(text).toContain("| GET /v1/numbers: share of the same-parts floor's req/s");
  });

  it('tables each service memory idle, settled and at each peak', () => {
    const idle = { gateway: { mean_mib: 90 }, 'calls-media': { mean_mib: 100 } };
    const text = memoryTable(
      { memory_idle: idle, memory_idle_settled: idle },
      { 'events (peak)': { gateway: { max_mib: 200 } } },
    );
    expect(text.split('\n')[0]).toBe(
      '| resident memory (MiB) | idle after setup (mean) | idle, settled (mean) | events (peak) |',
    );
    expect(rowOf(text, 'calls-media')).toEqual(['calls-media', '100', '100', '']);
  });
});

describe('the events benchmark', () => {
  const injection = {
    accepted: new Map([
      ['CA1', 1000],
      ['CA2', 1100],
      ['CA3', 1200],
    ]),
    refused: 1,
    refusals: { '503 service_unavailable': 1 },
    first: 1000,
    last: 1500,
  };
  const arrival = (received: number, connection: string) => ({ received, connection });
  const delivered = new Map([
    ['CA1', arrival(1050, 'full')],
    ['CA2', arrival(3000, 'kept')],
  ]);

  it('counts deliveries per second from the first report to the last delivery, and what was lost or repeated', () => {
    const run = summarizeRun(injection, { delivered, duplicates: new Map([['CA1', 3]]) });
    expect(run).toMatchObject({ accepted: 3, delivered: 2, lost: 1, duplicates: 2, refused_reports: 1 });
    expect(run).toMatchObject({ reports_per_second: 6, span_s: 2, deliveries_per_second: 1 });
    expect(run.latency).toMatchObject({ count: 2, p50_ms: 50, max_ms: 1900 });
    expect(run.slowest).toEqual([{ at: 1100, sent_s: 0.1, ms: 1900 }]);
    expect(run.connections).toEqual({ kept: 1, resumed: 0, full: 1 });
    expect(connectionLine(run.connections)).toBe('kept 50%, resumed 0%, full handshake 50%');
  });

  it('names a refusal by its answer, or by what failed without one', () => {
    const refusals = {};
    countRefusal(refusals, { status: 429, body: { error: { code: 'rate_limited' } } });
    countRefusal(refusals, new Error('socket hang up'));
    countRefusal(refusals, { status: 429, body: { error: { code: 'rate_limited' } } });
    expect(refusals).toEqual({ '429 rate_limited': 2, 'socket hang up': 1 });
    expect(refusalLine(refusals)).toBe('429 rate_limited: 2, socket hang up: 1');
  });

  it('judges the system against the floor with its hops, and reports the bare floor beside it', () => {
    const run = (perSecond: number, p99: number, lost = 0, duplicates = 0) => ({
      throughput: { deliveries_per_second: perSecond, lost, duplicates },
      latency: { latency: { p99_ms: p99 }, lost: 0, duplicates: 0 },
    });
    const r = { ...run(200, 30, 1, 2), floor: run(1000, 10), hops_floor: run(500, 20) };
    const verdicts = eventsVerdicts(r);
    expect(verdicts).toMatchObject({ lost: 1, duplicates: 2 });
    expect(verdicts.floor_verdict).toEqual({
      ratio: 0.2,
      system_per_second: 200,
      floor_per_second: 1000,
      p99_ms_at_half_rate: 30,
      floor_p99_ms_at_half_rate: 10,
    });
    expect(verdicts.hops_floor_verdict).toMatchObject({ of_floor: 0.5, system_of_hops_floor: 0.4 });
  });

  it("prints the system's and both floors' rows and the guards", () => {
    const figures = { deliveries_per_second: 205, delivered: 3000, accepted: 3000, lost: 0, duplicates: 0 };
    const half = { ...figures, delivered: 1000, accepted: 1000, rate: 102.5, latency: { p50_ms: 12.34, p99_ms: 26.8 } };
    const pair = { throughput: figures, latency: half };
    const text = eventsReport({
      numbers: 1000,
      calls: 3000,
      dispatcher_concurrency: 32,
      ...pair,
      floor: pair,
      hops_floor: pair,
      throughput: { ...figures, reports_per_second: 400, connections: { kept: 3, resumed: 1, full: 0 } },
      floor_verdict: { ratio: 0.14 },
      hops_floor_verdict: { system_of_hops_floor: 0.39, of_floor: 0.36 },
      lost: 0,
      duplicates: 0,
      signature_failures: 0,
    });
    expect(rowOf(text, 'Switchboard')?.slice(0, 8)).toEqual([
      'Switchboard',
      '205',
      '4,000/4,000',
      '0',
      '0',
      '103',
      '12.3',
      '26.8',
    ]);
    expect(text).toContain('Switchboard at 39.0% of the floor with its hops and 14.0% of the bare floor');
    expect(text).toContain('kept 75%, resumed 25%, full handshake 0%');
    expect(rowOf(text, "events: share of the floor with Switchboard's hops (deliveries/s)")?.[3]).toBe('MISSED');
  });
});

describe('the start-up benchmark', () => {
  it('reads the first start as new databases and the median of the others as the guard', () => {
    const result = startupResult([9.1, 4.8, 4.2, 5.5]);
    expect(result).toEqual({ new_databases_s: 9.1, existing_databases_s: 4.8, runs_s: [9.1, 4.8, 4.2, 5.5] });
    const text = startupReport(result);
    expect(rowOf(text, 'databases there (start 3)')).toEqual(['databases there (start 3)', '4.2']);
    expect(rowOf(text, '`npm start` to ready, built tree')).toEqual([
      '`npm start` to ready, built tree',
      '4.8 s (new databases: 9.1 s)',
      '< 10 s',
      'held',
    ]);
  });
});

describe('diagnostics', () => {
  const variant = (id: string, rps: number[], cpu: number[]) => ({
    id,
    name: id,
    samples: rps.map((r, round) => ({ rps: r, gateway_cpu_ms: cpu[round] })),
  });

  it('compares each variant with the reference of the same round, and takes the median', () => {
    const [reference, otelOff] = diagnosticsVariants([
      variant('as-configured', [1000, 800, 900], [0.6, 0.75, 0.7]),
      variant('otel-off', [1100, 840, 990], [0.54, 0.6, 0.7]),
    ]);
    expect(reference).toMatchObject({ median_rps: 900, median_rps_ratio: 1, median_gateway_cpu_ratio: 1 });
    expect(otelOff.rps_vs_reference_per_round).toEqual([1.1, 1.05, 1.1]);
    expect(otelOff.gateway_cpu_vs_reference_per_round).toEqual([0.9, 0.8, 1]);
    expect(otelOff).toMatchObject({ median_rps: 990, median_rps_ratio: 1.1, median_gateway_cpu_ratio: 0.9 });
    const text = diagnosticsReport({
      path: 'GET /v1/numbers',
      rounds: 3,
      duration_s: 5,
      variants: [reference, otelOff],
    });
    expect(rowOf(text, 'otel-off')).toEqual([
      'otel-off',
      '990',
      '840-1,100',
      '+10% (+10% +5% +10%)',
      '0.60',
      '-10% (-10% -20% +0%)',
      '',
    ]);
  });
});

describe('the lost-and-found table', () => {
  it('shows p50 and p95 at each size, and how much the median grew', () => {
    const size = (items: number, p50: number) => ({
      items,
      timings: [{ label: 'q: one common word', p50_ms: p50, p95_ms: 2 * p50 }],
    });
    const text = lostfoundTable([size(100_000, 2), size(1_000_000, 5)]);
    expect(text.split('\n')[0]).toBe(
      '| request            | p50 @100k | p95 @100k | p50 @1M | p95 @1M | p50 x (1M/100k) |',
    );
    expect(rowOf(text, 'q: one common word')).toEqual([
      'q: one common word',
      '2.0 ms',
      '4.0 ms',
      '5.0 ms',
      '10.0 ms',
      '2.5x',
    ]);
    expect(lostfoundTable([size(10_000, 1)]).split('\n')[0]).toBe('| request            | p50 @10k | p95 @10k |');
  });
});
