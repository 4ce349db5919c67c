// What tools/perf/probes/pause-probe.cjs records in each service, for the tools that line slow requests up with it
// (bench/tail-api.mjs, bench/events.mjs --pauses): how to start the services with the probe, its records, names for
// V8's collections, and slow requests lined up with them.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants } from 'node:perf_hooks';
import { fmt, int, kit, table } from './common.mjs';
import { countBy, summarize } from './stats.mjs';

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor (scavenge)',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/** A garbage collection's kind as a word (the probe records V8's number). */
export function gcKindName(kind) {
  return GC_KINDS[kind] ?? String(kind);
}

/** A directory for the records, and the environment and node arguments that make each service write them there. */
export function pauseProbe() {
  const dir = mkdtempSync(join(tmpdir(), 'sb-pauses-'));
  return { dir, env: { PAUSE_PROBE_DIR: dir }, nodeArgs: ['--require', join(kit, 'probes/pause-probe.cjs')] };
}

/** Every process's records (`{ pid, main, gc, stalls }`), written by each service as it stopped. */
export function readPauseProbes(dir) {
  return readdirSync(dir).map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')));
}

// ------------------------------------------------------------------------------------------------ lining up
/** The records of the processes `names` ({ pid: name }) names, as { app, gc, stalls } with each event's `end`. */
export function pauseTimelines(probes, names) {
  const withEnd = (events) => events.map((e) => ({ ...e, end: e.at + e.ms }));
  return probes
    .filter((p) => names[p.pid])
    .map((p) => ({ app: names[p.pid], gc: withEnd(p.gc), stalls: withEnd(p.stalls) }));
}

/** How much of event `e` ({ at, end }) falls within [a, b]. */
const overlap = (e, a, b) => Math.max(0, Math.min(e.end, b) - Math.max(e.at, a));
const mean = (values) => (values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : NaN);

/**
 * What held up request `r` (`at`, `ms`, `late_ms`: how late the load generator sent it): the load generator when over
 * 5 ms late, each process whose stalls over it came to over 5 ms or its collections to over 2 ms, largest first as
 * [what, ms]; and the machine's mean busy and steal CPU in the bins of `machineCpu` it spans.
 */
export function causesOf(r, processes, machineCpu) {
  const [a, b] = [r.at, r.at + r.ms];
  const found = r.late_ms > 5 ? [['load generator late', r.late_ms]] : [];
  for (const p of processes) {
    const stall = p.stalls.reduce((s, e) => s + overlap(e, a, b), 0);
    const gc = p.gc.reduce((s, e) => s + overlap(e, a, b), 0);
    if (stall > 5) found.push([`${p.app} stalled`, stall]);
    if (gc > 2) found.push([`${p.app} GC`, gc]);
  }
  const bins = machineCpu.filter((bin) => bin.end > a && bin.at < b);
  return {
    found: found.sort((x, y) => y[1] - x[1]),
    busy: mean(bins.map((bin) => bin.busy)),
    steal: mean(bins.map((bin) => bin.steal)),
  };
}

/** Slow requests whose windows overlap, merged: [{ from, to, n, worst }] in time order. */
export function incidentsOf(slow) {
  const incidents = [];
  for (const r of [...slow].sort((a, b) => a.at - b.at)) {
    const last = incidents.at(-1);
    if (last && r.at <= last.to) {
      last.to = Math.max(last.to, r.at + r.ms);
      last.n += 1;
      last.worst = Math.max(last.worst, r.ms);
    } else incidents.push({ from: r.at, to: r.at + r.ms, n: 1, worst: r.ms });
  }
  return incidents;
}

/**
 * bench/tail-api.mjs's report of a paced run (`run.timeline`: [{ at, ms, late_ms }]): what held up each process during
 * it, what held up each request over `slowMs`, the machine's CPU in its bins, and the incidents, largest first.
 */
export function tailReport({ run, processes, machineCpu, slowMs, durationS }) {
  const from = run.timeline[0].at;
  const to = Math.max(...run.timeline.map((r) => r.at + r.ms));
  const inRun = (e) => e.end >= from && e.at <= to;
  const held = processes.map((p) => {
    const byKind = {};
    for (const g of p.gc.filter(inRun)) {
      const kind = (byKind[gcKindName(g.kind)] ??= { n: 0, total: 0, max: 0 });
      kind.n += 1;
      kind.total += g.ms;
      kind.max = Math.max(kind.max, g.ms);
    }
    const stalls = p.stalls.filter(inRun);
    const stalled = stalls.reduce((s, x) => s + x.ms, 0);
    return [
      p.app,
      Object.entries(byKind)
        .map(([k, v]) => `${k} ${v.n} (${fmt(v.total, 0)} ms, max ${fmt(v.max, 1)})`)
        .join(', ') || '-',
      `${stalls.length} (${fmt(stalled, 0)} ms, max ${fmt(Math.max(0, ...stalls.map((x) => x.ms)), 1)})`,
      int(stalls.filter((s) => s.ms >= 20).length),
    ];
  });
  const slow = run.timeline.filter((r) => r.ms > slowMs);
  const causes = slow.map((r) => causesOf(r, processes, machineCpu));
  const tally = countBy(
    causes.flatMap(({ found }) => found.map(([what]) => what)),
    (what) => what,
  );
  const allBusy = summarize(machineCpu.filter((bin) => bin.end > from && bin.at < to).map((b) => b.busy));
  const slowBusy = summarize(causes.map((c) => c.busy).filter(Number.isFinite));
  const steal = causes.map((c) => c.steal).filter(Number.isFinite);
  const incidents = incidentsOf(slow)
    .sort((a, b) => b.n - a.n)
    .slice(0, 15)
    .map((i) => {
      const late = run.timeline.filter((r) => r.at >= i.from && r.at <= i.to).map((r) => r.late_ms);
      const { found, busy, steal } = causesOf(
        { at: i.from, ms: i.to - i.from, late_ms: Math.max(...late) },
        processes,
        machineCpu,
      );
      return [
        fmt((i.from - from) / 1000, 2),
        int(i.n),
        fmt(i.worst, 0),
        `${found.map(([w, ms]) => `${w} ${fmt(ms, 0)} ms`).join(', ') || 'nothing recorded'}; CPU ${fmt(busy, 0)}%, steal ${fmt(steal, 0)}%`,
      ];
    });
  return [
    `\n## What held up each process during the ${durationS} s at ${int(run.target_rate)} req/s\n`,
    table(['process', 'garbage collections', 'event-loop stalls over 5 ms', 'stalls of 20 ms+'], held),
    `\n## The ${int(slow.length)} requests over ${slowMs} ms (of ${int(run.timeline.length)}; p99 ${run.p99_ms} ms)\n`,
    table(
      ['held up by (a request may count under several)', 'slow requests'],
      [
        ...Object.entries(tally)
          .sort((a, b) => b[1] - a[1])
          .map(([what, n]) => [what, int(n)]),
        [
          'nothing recorded (waiting on PostgreSQL, NATS, the kernel)',
          int(causes.filter((c) => c.found.length === 0).length),
        ],
      ],
    ),
    `\nmachine CPU busy (of 2 cores = 200%) in 50 ms bins: all bins p50 ${allBusy.p50_ms}%, p90 ${allBusy.p90_ms}%; bins holding slow requests p50 ${slowBusy.p50_ms}%, p90 ${slowBusy.p90_ms}%; steal during slow requests mean ${fmt(steal.reduce((s, v) => s + v, 0) / (slow.length || 1), 1)}%`,
    `\n## ${incidentsOf(slow).length} incidents (slow requests overlapping in time), largest first\n`,
    table(['at s', 'slow requests', 'worst ms', 'during the incident'], incidents),
  ].join('\n');
}

/**
 * What held up each process (`pauseTimelines`) while each of the `slowest` deliveries ([{ at, ms, sent_s }]) was on
 * its way (bench/events.mjs --pauses): its stalls, and its collections over 1 ms, at their offset into the delivery.
 */
export function pausesTable(processes, slowest) {
  const rows = slowest.map((d) => {
    const [from, to] = [d.at, d.at + d.ms];
    const overlaps = (e) => e.end >= from && e.at <= to;
    const held = [];
    for (const p of processes) {
      const stalls = p.stalls.filter(overlaps);
      const gcs = p.gc.filter((g) => g.ms > 1 && overlaps(g));
      if (stalls.length || gcs.length)
        held.push(
          `${p.app}: ${[
            ...stalls.map((x) => `stall ${fmt(x.ms, 0)} ms at +${fmt(x.at - from, 0)}`),
            ...gcs.map((g) => `${gcKindName(g.kind)} collection ${fmt(g.ms, 1)} ms at +${fmt(g.at - from, 0)}`),
          ].join(', ')}`,
        );
    }
    return [fmt(d.sent_s, 3), fmt(d.ms, 1), held.join('; ') || '-'];
  });
  return table(['sent at s', 'ms', 'stalls and collections during it'], rows);
}
