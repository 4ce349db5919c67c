import { shortCount, table, tableLines, timeRuns } from './common.mjs';
import { foreignPercent, machineCpuBetween, parseProcStat, readCpuTimes } from './cpu.mjs';
import { packageOf, parsePerfReport } from './profile.mjs';

describe('reading /proc', () => {
  it("reads a process's name, parent, CPU ticks and start time, a name with spaces and parentheses included", () => {
    const line = '4242 (node (gateway) x) S 4200 4242 4200 0 -1 4194560 5000 0 0 0 1234 56 0 0 20 0 11 0 987654 0 0';
    expect(parseProcStat(line)).toEqual({ comm: 'node (gateway) x', ppid: 4200, ticks: 1290, startedAt: '987654' });
  });

  it('refuses what is not a stat line', () => {
    expect(() => parseProcStat('no parentheses here')).toThrow('not a /proc/<pid>/stat line');
    expect(() => parseProcStat('1 (x) S')).toThrow('not a /proc/<pid>/stat line');
  });

  it("sums the machine's busy, steal and idle ticks from /proc/stat's first line", () => {
    const stat = 'cpu  100 5 50 1000 20 3 7 11 0 0\ncpu0 50 2 25 500 10 1 3 5 0 0\nintr 1';
    expect(readCpuTimes(stat)).toEqual({ busy: 165, steal: 11, idle: 1020 });
    expect(() => readCpuTimes('intr 1 2 3')).toThrow('not /proc/stat');
  });

  it("makes two readings of /proc/stat 50 ms apart the machine's busy and steal CPU in % of one core", () => {
    const bin = machineCpuBetween({ at: 1000, busy: 100, steal: 10, idle: 0 }, { at: 1050, busy: 108, steal: 11 });
    expect(bin).toEqual({ at: 1000, end: 1050, busy: 160, steal: 20 });
  });

  it("counts other processes' CPU, PostgreSQL's and NATS's too before a run uses them", () => {
    const cpu = { percent_of_one_core: { gateway: 90, other: 12, postgres: 20, 'nats-server': 5 } };
    expect(foreignPercent(cpu)).toBe(12);
    expect(foreignPercent(cpu, { shared: true })).toBe(37);
    expect(foreignPercent({ percent_of_one_core: {} })).toBe(0);
  });
});

describe("reading perf report's text", () => {
  it("splits each process's samples into the kernel, JIT code and its other objects, for our processes only", () => {
    const report = [
      '# Overhead  Pid:Command  Shared Object',
      '    20.50%  101:node     [kernel.kallsyms]',
      '    10.25%  101:node     [JIT] tid 101',
      '     5.00%  101:node     node',
      '     2.00%  101:node     [JIT] tid 101',
      '     7.00%  202:node     libc.so.6',
      '    30.00%  999:postgres [kernel.kallsyms]',
    ].join('\n');
    expect(parsePerfReport(report, { 101: 'gateway', 202: 'calls-media' })).toEqual({
      gateway: { kernel: 20.5, 'JIT code': 12.25, node: 5 },
      'calls-media': { 'libc.so.6': 7 },
    });
  });

  it("tells a profile frame's package by its file", () => {
    expect(packageOf('file:///w/node_modules/@nats-io/nats-core/lib/core.js')).toBe('@nats-io/nats-core');
    expect(packageOf('file:///w/node_modules/fastify/lib/route.js')).toBe('fastify');
    expect(packageOf('file:///w/apps/gateway/dist/main.js')).toBe('apps/gateway');
    expect(packageOf('node:internal/streams/writable')).toBe('node internals');
    expect(packageOf('')).toBe('(native / V8)');
  });
});

describe('tables', () => {
  it('pads the first column left and the others right, with a Markdown rule', () => {
    expect(
      table(
        ['a', 'b'],
        [
          ['x', 1],
          ['longer', 22],
        ],
      ).split('\n'),
    ).toEqual(['| a      |  b |', '|--------|---:|', '| x      |  1 |', '| longer | 22 |']);
  });

  it('names sizes in a header short', () => {
    expect([500, 10_000, 100_000, 1_000_000, 1_500_000].map(shortCount)).toEqual(['500', '10k', '100k', '1M', '1.5M']);
  });

  it('times runs one at a time after untimed ones', async () => {
    const seen: number[] = [];
    const summary = await timeRuns(3, 2, (i: number) => seen.push(i));
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(summary.count).toBe(3);
    expect(summary.p50_ms).toBeGreaterThanOrEqual(0);
  });

  it('finds the table rows in a script output', () => {
    expect(tableLines('building ...\n| a | b |\n|---|--:|\n| x | 1 |\nresults: f.json')).toBe(
      '| a | b |\n|---|--:|\n| x | 1 |',
    );
  });
});
