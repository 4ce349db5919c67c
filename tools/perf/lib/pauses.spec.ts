import { constants } from 'node:perf_hooks';
import { causesOf, gcKindName, incidentsOf, pausesTable, pauseTimelines, tailReport } from './pauses.mjs';
import { rowOf } from './table-rows';

const MAJOR = constants.NODE_PERFORMANCE_GC_MAJOR;
// Wall-clock ms: the gateway stalls 20 ms at 1000 and collects 4 ms at 1030; the canary saw the machine stand still.
const processes = pauseTimelines(
  [
    { pid: 11, gc: [{ at: 1030, ms: 4, kind: MAJOR }], stalls: [{ at: 1000, ms: 20 }] },
    { pid: 99, gc: [], stalls: [{ at: 1000, ms: 50 }] }, // not one of ours
  ],
  { 11: 'gateway' },
);
const machineCpu = [
  { at: 950, end: 1000, busy: 100, steal: 0 },
  { at: 1000, end: 1050, busy: 180, steal: 10 },
];

describe('lining slow requests up with pauses', () => {
  it('keeps the named processes, each event with its end', () => {
    expect(processes).toEqual([
      { app: 'gateway', gc: [{ at: 1030, ms: 4, kind: MAJOR, end: 1034 }], stalls: [{ at: 1000, ms: 20, end: 1020 }] },
    ]);
    expect(gcKindName(MAJOR)).toBe('major');
  });

  it('names what held a request up, by how long it overlapped, and the CPU of the bins it spans', () => {
    expect(causesOf({ at: 1010, ms: 30, late_ms: 8 }, processes, machineCpu)).toEqual({
      found: [
        ['gateway stalled', 10],
        ['load generator late', 8],
        ['gateway GC', 4],
      ],
      busy: 180,
      steal: 10,
    });
    expect(causesOf({ at: 1021, ms: 5, late_ms: 0 }, processes, [])).toEqual({ found: [], busy: NaN, steal: NaN });
  });

  it('merges slow requests that overlap into incidents', () => {
    const slow = [
      { at: 1040, ms: 30 },
      { at: 1000, ms: 50 },
      { at: 2000, ms: 40 },
    ];
    expect(incidentsOf(slow)).toEqual([
      { from: 1000, to: 1070, n: 2, worst: 50 },
      { from: 2000, to: 2040, n: 1, worst: 40 },
    ]);
  });

  it("tables what held up each of events' slowest deliveries, at its offset", () => {
    const text = pausesTable(processes, [
      { at: 990, ms: 45.04, sent_s: 1.5 },
      { at: 3000, ms: 30, sent_s: 3.5 },
    ]);
    expect(text.split('\n').slice(2)).toEqual([
      '| 1.500     | 45.0 | gateway: stall 20 ms at +10, major collection 4.0 ms at +40 |',
      '| 3.500     | 30.0 |                                                           - |',
    ]);
  });

  it("reports tail-api's run: each process's pauses, the slow requests' causes and the incidents", () => {
    const run = {
      target_rate: 500,
      p99_ms: 31,
      timeline: [
        { at: 905, ms: 5, late_ms: 0 },
        { at: 1005, ms: 30, late_ms: 0 },
        { at: 1010, ms: 26, late_ms: 7 },
        { at: 1500, ms: 40, late_ms: 0 },
      ],
    };
    const text = tailReport({ run, processes, machineCpu, slowMs: 25, durationS: 20 });
    const cells = (first: string) => rowOf(text, first);
    expect(text).toContain('## What held up each process during the 20 s at 500 req/s');
    expect(cells('gateway')).toEqual(['gateway', 'major 1 (4 ms, max 4.0)', '1 (20 ms, max 20.0)', '1']);
    expect(text).toContain('## The 3 requests over 25 ms (of 4; p99 31 ms)');
    expect(cells('gateway stalled')).toEqual(['gateway stalled', '2']);
    expect(cells('load generator late')).toEqual(['load generator late', '1']);
    expect(cells('nothing recorded (waiting on PostgreSQL, NATS, the kernel)')?.[1]).toBe('1');
    expect(text).toContain('## 2 incidents (slow requests overlapping in time), largest first');
    expect(cells('0.10')).toEqual([
      '0.10',
      '2',
      '30',
      'gateway stalled 15 ms, load generator late 7 ms, gateway GC 4 ms; CPU 180%, steal 10%',
    ]);
  });
});
