import { databaseUrl, rebuildPlan, staleBenchDatabases } from './postgres.mjs';

describe("the benchmarks' databases", () => {
  it('are named on the server of TEST_DATABASE_URL, its credentials and options kept', () => {
    expect(databaseUrl('sb_bench_x', 'postgres://bench:pw@db.local:6543/postgres?sslmode=disable')).toBe(
      'postgres://bench:pw@db.local:6543/sb_bench_x?sslmode=disable',
    );
  });

  it('are stale when their base-36 stamp is over an hour old, whatever else shares the prefix', () => {
    const now = Date.UTC(2026, 11, 2, 12);
    const stamp = (msAgo: number) => (now - msAgo).toString(36);
    const names = [`sb_bench_${stamp(3_601_000)}_ab_gateway`, `sb_bench_${stamp(3_599_000)}_cd_gateway`, 'sb_bench_x'];
    expect(staleBenchDatabases(names, now)).toEqual([names[0]]);
    // A word after the prefix reads as a stamp: `capacity` is from 2000, so capacity.mjs names its database otherwise.
    expect(staleBenchDatabases(['sb_bench_capacity_1', 'sb_bench_lostfound_1'], now)).toEqual(['sb_bench_capacity_1']);
  });
});

describe('rebuilding the indexes a bulk load dropped', () => {
  const saved = {
    constraints: [
      { name: 'calls_pkey', tbl: 'calls', type: 'p', def: 'PRIMARY KEY (id)' },
      { name: 'turns_pkey', tbl: 'transcript_turns', type: 'p', def: 'PRIMARY KEY (call_id, position)' },
      {
        name: 'turns_call_fkey',
        tbl: 'transcript_turns',
        type: 'f',
        def: 'FOREIGN KEY (call_id) REFERENCES calls(id)',
      },
    ],
    indexes: [
      {
        name: 'calls_account_idx',
        tbl: 'calls',
        def: 'CREATE INDEX calls_account_idx ON public.calls USING btree (a)',
      },
      {
        name: 'calls_search_idx',
        tbl: 'calls',
        def: 'CREATE INDEX calls_search_idx ON public.calls USING gin (search)',
      },
    ],
  };

  it('builds the GIN index beside the other indexes, and the foreign keys after the keys they reference', () => {
    const plan = rebuildPlan(saved);
    const names = (statements: { name: string }[]) => statements.map((s) => s.name);
    expect(names(plan.first)).toEqual(['calls_search_idx', 'turns_pkey']);
    expect(names(plan.second)).toEqual(['calls_pkey', 'calls_account_idx']);
    expect(names(plan.last)).toEqual(['turns_call_fkey']);
    expect(plan.last[0].sql).toBe(
      'ALTER TABLE transcript_turns ADD CONSTRAINT "turns_call_fkey" FOREIGN KEY (call_id) REFERENCES calls(id)',
    );
    expect(plan.first[0].sql).toBe(saved.indexes[1].def);
  });
});
