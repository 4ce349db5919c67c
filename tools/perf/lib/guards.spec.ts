import {
  apiGuards,
  benchGuards,
  chaosVerdict,
  eventsGuards,
  GUARDS,
  guardsTable,
  memoryGuards,
  startupGuards,
} from './guards.mjs';

const route = (ratio: number, factor: number) => ({
  ratio,
  system_rps: 1000 * ratio,
  floor_rps: 1000,
  p99_factor_at_half_rate: factor,
  system_p99_ms: Number((10 * factor).toFixed(2)),
  floor_p99_ms: 10,
});

describe('the performance guards', () => {
  it('are the bounds the issues name', () => {
    expect(GUARDS).toEqual({
      samePartsFloorShare: 0.9,
      bareFloorShare: 0.35,
      p99FactorAtHalfRate: 3,
      eventsHopsFloorShare: 0.5,
      idleMiB: 150,
      startupSeconds: 10,
    });
  });

  it('hold the API at 90% of the same-parts floor and 35% of the bare floor, a p99 at three times it, and not beyond', () => {
    const held = apiGuards({
      same_parts_verdict: { numbers: route(0.9, 3), calls: route(0.97, 1.2) },
      floor_verdict: { numbers: route(0.35, NaN), calls: route(0.5, NaN) },
    });
    expect(held.map((row) => row.held)).toEqual([true, true, true, true, true, true]);
    const missed = apiGuards({
      same_parts_verdict: { numbers: route(0.89, 3.01), calls: route(1.02, 2) },
      floor_verdict: { numbers: route(0.36, NaN), calls: route(0.349, NaN) },
    });
    expect(missed.map((row) => row.held)).toEqual([false, true, true, false, false, true]);
    expect(missed[0]).toMatchObject({
      guard: "GET /v1/numbers: share of the same-parts floor's req/s",
      measured: '89.0% (890 of 1,000)',
    });
    expect(missed[3]).toMatchObject({ guard: "GET /v1/calls: share of the bare floor's req/s", held: false });
    expect(missed[4].measured).toBe('3.01x (30.1 against 10 ms)');
  });

  it('leaves a guard unjudged when its floor was not measured', () => {
    const rows = apiGuards({ floor_verdict: { numbers: route(0.5, NaN), calls: route(0.5, NaN) } });
    expect(rows.map((row) => row.held)).toEqual([undefined, undefined, true, true, undefined, undefined]);
  });

  it("reads events against the floor with Switchboard's hops, and counts lost and duplicated deliveries", () => {
    const events = (share: number, lost = 0, duplicates = 0) => ({
      throughput: {},
      lost,
      duplicates,
      hops_floor_verdict: { system_of_hops_floor: share, system_per_second: 300 * share, hops_floor_per_second: 300 },
    });
    expect(eventsGuards(events(0.5)).map((row) => row.held)).toEqual([true, true]);
    expect(eventsGuards(events(0.499)).map((row) => row.held)).toEqual([false, true]);
    expect(eventsGuards(events(0.9, 1)).map((row) => row.held)).toEqual([true, false]);
    expect(eventsGuards(events(0.9, 0, 2)).map((row) => row.held)).toEqual([true, false]);
  });

  it('holds idle memory only when every service is at or under 150 MiB, and names the largest', () => {
    const settled = { gateway: { mean_mib: 95 }, 'calls-media': { mean_mib: 150 } };
    expect(memoryGuards(settled)[0]).toMatchObject({ held: true, measured: '150 MiB at most (calls-media)' });
    expect(memoryGuards({ ...settled, lostfound: { mean_mib: 151 } })[0].held).toBe(false);
  });

  it('holds the start-up under 10 s with the databases there', () => {
    expect(startupGuards({ new_databases_s: 12, existing_databases_s: 9.9 })[0].held).toBe(true);
    expect(startupGuards({ new_databases_s: 12, existing_databases_s: 10 })[0].held).toBe(false);
  });

  it('says what was not measured instead of a verdict', () => {
    expect(startupGuards(undefined)[0]).toMatchObject({ measured: 'not measured', held: undefined });
    expect(benchGuards({})).toEqual([]);
    expect(benchGuards({ startup: { existing_databases_s: 5 } })).toHaveLength(1);
    expect(guardsTable([{ guard: 'g', measured: 'not measured', bound: '< 1', held: undefined }])).toMatch(
      /\| +- \|$/m,
    );
    expect(guardsTable([{ guard: 'g', measured: '2', bound: '< 1', held: false }])).toContain('MISSED');
  });
});

describe("the fault tests' verdict", () => {
  const clean = { test: 'kill', lost: 0, duplicated_by_check: { delivery: 0, calls_list: 0, billing: 0 } };

  it('holds when nothing was lost, listed or billed twice, and a delivery repeated after a crash is allowed', () => {
    expect(
      chaosVerdict([clean, { ...clean, duplicated_by_check: { delivery: 3, calls_list: 0, billing: 0 } }]),
    ).toEqual({
      held: true,
      failures: [],
    });
  });

  it('fails on anything lost, a call listed or billed twice, a broken rule, an unstreamed live event or an error', () => {
    const { held, failures } = chaosVerdict([
      { ...clean, lost: 2 },
      { ...clean, test: 'nats', duplicated_by_check: { delivery: 0, calls_list: 1, billing: 1 } },
      { test: 'receivers', lost: 0, checks: { duplicated: { calls_list: 0, billing: 1 } } },
      { test: 'provisions', lost: 0, duplicated: 1, rule_broken: true },
      { test: 'nats', error: 'Error: nats-server did not start\n    at ...', lost: NaN },
      { test: 'live', lost: 1, duplicated_by_check: { calls_list: 0, billing: 0, adjustment: 1 } },
      { test: 'live', lost: 0, stream: { skipped_events: 3 } },
    ]);
    expect(held).toBe(false);
    expect(failures).toEqual([
      'kill: 2 lost',
      'nats: 2 listed, billed or provisioned twice',
      'receivers: 1 listed, billed or provisioned twice',
      'provisions: a provisioning rule was broken',
      'provisions: 1 listed, billed or provisioned twice',
      'nats: Error: nats-server did not start',
      'live: 1 lost',
      'live: 1 listed, billed or provisioned twice',
      'live: 3 live events never streamed',
    ]);
  });
});
