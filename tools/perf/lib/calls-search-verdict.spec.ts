import { boundOf, casesTable, caseVerdict, TARGETS, verdicts } from './calls-search-verdict.mjs';
import { rowOf } from './table-rows';

const m = (p99_ms: number, failed = 0, count = 200) => ({ p99_ms, failed, count });

describe('the calls search verdicts', () => {
  it('are the targets the feature names', () => {
    expect(TARGETS).toEqual({ growthFactor: 3, maxP99Ms: 250, statsMaxP99Ms: 250 });
  });

  it('hold a filter or q at three times its small p99 and under 250 ms, and not beyond', () => {
    expect(caseVerdict('filter', m(10), m(30))).toMatchObject({ held: true, factor: 3, why: [] });
    expect(caseVerdict('q', m(90), m(249.9)).held).toBe(true);
    const grew = caseVerdict('filter', m(10), m(30.1));
    expect(grew.held).toBe(false);
    expect(grew.why).toEqual(['p99 grew 3.01x (10.0 -> 30.1 ms), over 3x']);
    const slow = caseVerdict('q', m(100), m(250));
    expect(slow).toMatchObject({ held: false, why: ['p99 250.0 ms, not under 250'] });
    expect(caseVerdict('list', m(50), m(400)).why).toHaveLength(2);
  });

  it('holds the stats under 250 ms whatever they grew by', () => {
    expect(caseVerdict('stats', m(1), m(200))).toMatchObject({ held: true, factor: 200 });
    expect(caseVerdict('stats', m(1), m(250)).held).toBe(false);
  });

  it('misses a case with failed requests, and leaves one without figures unjudged', () => {
    expect(caseVerdict('filter', m(10), m(11, 2, 198))).toMatchObject({
      held: false,
      why: ['2 of 200 requests failed at the large size'],
    });
    expect(caseVerdict('stats', m(10, 1, 199), m(11)).held).toBe(false);
    expect(caseVerdict('filter', m(10), undefined)).toMatchObject({ held: undefined, why: ['not measured'] });
    expect(caseVerdict('filter', m(NaN), m(20))).toMatchObject({
      held: false,
      why: ['no p99 at the small size to compare with'],
    });
  });

  it("shows an info case without judging it, and leaves it out of the run's verdict", () => {
    expect(caseVerdict('info', m(10), m(900))).toMatchObject({ held: undefined, factor: 90, why: [] });
    expect(boundOf('info')).toBe('shown, not judged');
    const cases = [
      { id: 'list', label: 'list', kind: 'list' },
      { id: 'year', label: 'a year of stats', kind: 'info' },
    ];
    expect(verdicts(cases, { list: m(10), year: m(5) }, { list: m(20), year: m(900) }).held).toBe(true);
    expect(verdicts([cases[1]], {}, { year: m(1) }).held).toBe(false);
  });

  it('holds the run only when every case held', () => {
    const cases = [
      { id: 'list', label: 'list', kind: 'list' },
      { id: 'stats_day', label: 'stats', kind: 'stats' },
    ];
    const small = { list: m(10), stats_day: m(5) };
    expect(verdicts(cases, small, { list: m(20), stats_day: m(100) }).held).toBe(true);
    const missed = verdicts(cases, small, { list: m(40), stats_day: m(100) });
    expect(missed.held).toBe(false);
    expect(
      missed.rows.map((row: { id: string; held?: boolean; bound: string }) => [row.id, row.held, row.bound]),
    ).toEqual([
      ['list', false, boundOf('list')],
      ['stats_day', true, 'p99 < 250 ms'],
    ]);
    expect(verdicts(cases, small, { list: m(20) }).held).toBe(false);
    expect(verdicts([], {}, {}).held).toBe(false);
  });
});

describe('the calls table', () => {
  it('prints each case at both sizes, marks disturbed and failed measurements, and the verdict', () => {
    const cases = [
      { id: 'q', label: 'q=pizza', kind: 'q' },
      { id: 'year', label: 'stats, 366 days', kind: 'info' },
    ];
    const at = (p99: number, extra: object = {}) => ({
      p50_ms: p99 / 2,
      p99_ms: p99,
      rows_median: 50,
      cpu_ms_per_request: { 'calls-media db': 0.125 },
      ...extra,
    });
    const measured = {
      small: { q: at(10), year: at(100) },
      large: { q: at(40, { disturbed: true, failed: 1, count: 199 }), year: at(300) },
      small_beside_large: { q: at(12), year: at(110) },
    };
    const { rows } = verdicts(cases, measured.small, measured.large);
    const text = casesTable(rows, measured, { small: '10k', large: '1M', db: 'calls-media db' });
    expect(text.split('\n')[0]).toMatch(/^\| case +\| p50 @10k \| p99 @10k \| p50 @1M \| p99 @1M \| p99 x \|/);
    expect(rowOf(text, 'q=pizza')).toEqual([
      'q=pizza',
      '5.00',
      '10.00',
      '20.00',
      '40.00*!',
      '4.00x',
      '50, 50',
      '0.13, 0.13',
      '6.00',
      '12.00',
      'MISSED',
    ]);
    expect(rowOf(text, 'stats, 366 days')?.at(-1)).toBe('shown');
  });
});
