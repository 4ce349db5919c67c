// What the benchmarks' measurements come to, without I/O: each benchmark's figures and verdicts from its rounds and
// runs, and the tables `npm run bench` (bench/run.mjs) and each benchmark run alone print.
import { fmt, int, pct, shortCount, table } from '../lib/common.mjs';
import { perRequestLine, transactionsLine } from '../lib/cpu.mjs';
import { apiGuards, eventsGuards, guardsTable, memoryGuards, startupGuards } from '../lib/guards.mjs';
import { median, pairedVerdict, round, summarize } from '../lib/stats.mjs';
import { SERVICES } from '../../dev/service-bundles.mjs';

// ------------------------------------------------------------------------------------------------ api
const ofFloor = (maxRounds, name) => maxRounds.map((r) => ({ floor_rps: r[name].rps, system_rps: r.system.rps }));

/** The rate a route's p99 is measured at: half the system's maximum in the median round against the bare floor. */
export const halfRate = (maxRounds) => pairedVerdict(ofFloor(maxRounds, 'floor'), []).system_rps / 2;

/**
 * A route's verdicts from its rounds (`maxRounds` [{ same_parts, floor, system }] at the maximum rate, `halfRounds`
 * [{ same_parts, system }] at half the system's): against the bare floor, and against the same-parts floor.
 */
export function routeVerdicts(maxRounds, halfRounds) {
  return {
    floor: pairedVerdict(ofFloor(maxRounds, 'floor'), []),
    same_parts: pairedVerdict(
      ofFloor(maxRounds, 'same_parts'),
      halfRounds.map((r) => ({ floor_p99_ms: r.same_parts.p99_ms, system_p99_ms: r.system.p99_ms })),
    ),
  };
}

export function apiReport(r, { memory = true } = {}) {
  const lines = [
    `API: ${r.connections} connections, ${r.duration_s} s per measurement, ${r.pairs} rounds per route and rate ` +
      '(same-parts floor, bare floor, system); the median round reported (each round in brackets)',
    '',
  ];
  const shares = (v) => `${pct(v.ratio)} (${v.pair_ratios.map((x) => pct(x)).join(', ')})`;
  lines.push(
    table(
      [
        'route',
        'system req/s',
        'same-parts req/s',
        'bare req/s',
        'share of same-parts',
        'share of bare',
        'half rate',
        'system p99 ms',
        'same-parts p99 ms',
        'p99 factor (each round)',
        'CPU ms per request, system at max',
        'DB transactions per request',
      ],
      Object.entries(r.same_parts_verdict).map(([id, same]) => {
        const bare = r.floor_verdict[id];
        const median = r.floor[id].max_rounds.find((round) => round.system.rps === same.system_rps)?.system;
        return [
          `GET /v1/${id}`,
          int(same.system_rps),
          int(same.floor_rps),
          int(bare.floor_rps),
          shares(same),
          shares(bare),
          int(r.floor[id].half_rate),
          same.system_p99_ms,
          same.floor_p99_ms,
          `${fmt(same.p99_factor_at_half_rate, 2)}x (${same.pair_p99_factors.map((x) => fmt(x, 2)).join(', ')})`,
          median ? perRequestLine(median, 4) : '',
          median ? transactionsLine(median) : '',
        ];
      }),
    ),
  );
  lines.push('', 'Hop by hop, one request at a time', '');
  lines.push(
    table(
      ['step', 'p50 ms', 'p99 ms'],
      Object.values(r.hops).map((hop) => [hop.label, fmt(hop.p50_ms, 2), fmt(hop.p99_ms, 2)]),
    ),
  );
  if (memory) lines.push('', memoryTable(r, { 'under API load (peak)': r.memory_under_api_load }));
  lines.push('', guardsTable([...apiGuards(r), ...memoryGuards(r.memory_idle_settled)]));
  return lines.join('\n');
}

/** Each service's resident memory: idle right after the setup and settled (means), then each load's peak. */
export function memoryTable(api, loads) {
  const rows = SERVICES.map((app) => [
    app,
    api.memory_idle[app]?.mean_mib,
    api.memory_idle_settled?.[app]?.mean_mib,
    ...Object.values(loads).map((m) => m[app]?.max_mib),
  ]);
  return table(
    ['resident memory (MiB)', 'idle after setup (mean)', 'idle, settled (mean)', ...Object.keys(loads)],
    rows,
  );
}

// ------------------------------------------------------------------------------------------------ events
/**
 * A burst's or a paced run's figures: `injection` { accepted: Map(call SID -> sent at), refused, refusals, first,
 * last } against what the receivers handled (`delivered`: Map(SID -> first arrival), `duplicates`: Map(SID -> times
 * handled)). Deliveries per second count from the first report to the last delivery.
 */
export function summarizeRun(injection, { delivered, duplicates }) {
  const latencies = [];
  const timeline = [];
  let lastArrival = 0;
  for (const [sid, sent] of injection.accepted) {
    const arrival = delivered.get(sid);
    if (!arrival) continue;
    latencies.push(arrival.received - sent);
    timeline.push({
      at: sent,
      sent_s: round((sent - injection.first) / 1000, 3),
      ms: round(arrival.received - sent, 1),
    });
    lastArrival = Math.max(lastArrival, arrival.received);
  }
  const span = (lastArrival - injection.first) / 1000;
  const connections = { kept: 0, resumed: 0, full: 0 };
  for (const sid of injection.accepted.keys()) {
    const connection = delivered.get(sid)?.connection;
    if (connection in connections) connections[connection] += 1;
  }
  return {
    accepted: injection.accepted.size,
    refused_reports: injection.refused,
    refusals: injection.refusals,
    delivered: delivered.size,
    requests: delivered.size,
    lost: injection.accepted.size - delivered.size,
    duplicates: [...duplicates.values()].reduce((sum, n) => sum + n - 1, 0),
    reports_per_second: round(injection.accepted.size / ((injection.last - injection.first) / 1000), 1),
    span_s: round(span, 2),
    deliveries_per_second: round(delivered.size / span, 1),
    latency: summarize(latencies),
    // The 1% slowest, with when each was sent: slow ones sent together point at a stall, spread ones at a step.
    slowest: timeline.sort((a, b) => b.ms - a.ms).slice(0, Math.ceil(timeline.length / 100)),
    // The connections the deliveries came on, as the receivers saw them: kept (reused), resumed TLS sessions and
    // full handshakes. The floor keeps a connection per receiver; each new one costs both ends a handshake.
    connections,
  };
}

/** Counts a refused report by its answer (`503 service_unavailable`), or by what failed when there was none. */
export function countRefusal(refusals, error) {
  const reason = error?.status
    ? `${error.status} ${error.body?.error?.code ?? ''}`.trim()
    : String(error?.message ?? error);
  refusals[reason] = (refusals[reason] ?? 0) + 1;
}

/** `503 service_unavailable: 12, 429 rate_limited: 3` */
export function refusalLine(refusals = {}) {
  return Object.entries(refusals)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${reason}: ${int(n)}`)
    .join(', ');
}

/** `kept 0%, resumed 97%, full handshake 3%` */
export function connectionLine({ kept, resumed, full }) {
  const total = Math.max(kept + resumed + full, 1);
  const share = (n) => `${Math.round((n / total) * 100)}%`;
  return `kept ${share(kept)}, resumed ${share(resumed)}, full handshake ${share(full)}`;
}

/**
 * The events verdict from the system's and the floors' runs (`throughput` and `latency` each): what was lost and
 * duplicated, and the system's deliveries per second against the bare floor's and against the floor with
 * Switchboard's hops (the guard's figure, ADR 0134: what the architecture's hops leave at best).
 */
export function eventsVerdicts(r) {
  const floorRate = r.floor.throughput.deliveries_per_second;
  const hopsRate = r.hops_floor.throughput.deliveries_per_second;
  const rate = r.throughput.deliveries_per_second;
  return {
    lost: r.throughput.lost + r.latency.lost,
    duplicates: r.throughput.duplicates + r.latency.duplicates,
    floor_verdict: {
      ratio: round(rate / floorRate, 3),
      system_per_second: rate,
      floor_per_second: floorRate,
      p99_ms_at_half_rate: r.latency.latency.p99_ms,
      floor_p99_ms_at_half_rate: r.floor.latency.latency.p99_ms,
    },
    hops_floor_verdict: {
      system_per_second: rate,
      hops_floor_per_second: hopsRate,
      of_floor: round(hopsRate / floorRate, 3),
      system_of_hops_floor: round(rate / hopsRate, 3),
    },
  };
}

const disturbed = (m) => (m.disturbed ? `yes (${m.foreign_cpu_percent}%)` : '');

export function eventsReport(r) {
  const row = (label, t, l) => [
    label,
    int(t.deliveries_per_second),
    `${int(t.delivered + l.delivered)}/${int(t.accepted + l.accepted)}`,
    t.lost + l.lost,
    t.duplicates + l.duplicates,
    int(l.rate),
    fmt(l.latency.p50_ms),
    fmt(l.latency.p99_ms),
    perRequestLine(t, 8),
    transactionsLine(t),
    disturbed(t) || disturbed(l),
  ];
  const v = r.hops_floor_verdict;
  return [
    `Events: ${int(r.numbers)} numbers (3 per account, one HTTPS receiver port per account), ${int(r.calls)} calls ` +
      `in the burst, then one call to each number at half the burst's rate; dispatcher concurrency ${r.dispatcher_concurrency}`,
    '',
    table(
      [
        '',
        'deliveries/s',
        'delivered',
        'lost',
        'duplicated',
        'half rate /s',
        'p50 ms at half rate',
        'p99 ms at half rate',
        'CPU ms per delivery (burst)',
        'DB transactions per delivery',
        'disturbed',
      ],
      [
        row('Switchboard', r.throughput, r.latency),
        row("floor with Switchboard's hops", r.hops_floor.throughput, r.hops_floor.latency),
        row('floor (bare outbox, JetStream, pull consumer, HTTPS keep-alive)', r.floor.throughput, r.floor.latency),
      ],
    ),
    '',
    `Switchboard at ${pct(v.system_of_hops_floor)} of the floor with its hops and ${pct(r.floor_verdict.ratio)} of the ` +
      `bare floor; the floor with the hops at ${pct(v.of_floor)} of the bare floor. Reports accepted at ` +
      `${int(r.throughput.reports_per_second)}/s in the burst; connections of the deliveries: ${connectionLine(r.throughput.connections)}; ` +
      `signature failures: ${r.signature_failures}`,
    '',
    guardsTable(eventsGuards(r)),
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------ startup
/** The start-up figures from each start's seconds: the first with new databases, the median of the others. */
export const startupResult = (times) => ({
  new_databases_s: times[0],
  existing_databases_s: median(times.slice(1)),
  runs_s: times,
});

export function startupReport(s) {
  return [
    '`npm start` on a built tree, from the command to its ready line',
    '',
    table(
      ['start', 'seconds'],
      [
        ['new databases (first start)', fmt(s.new_databases_s, 1)],
        ...s.runs_s.slice(1).map((t, i) => [`databases there (start ${i + 2})`, fmt(t, 1)]),
      ],
    ),
    '',
    guardsTable(startupGuards(s)),
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------ diagnostics
/**
 * Each diagnostics variant ({ id, name, env?, fresh_rss_mib?, samples: [{ rps, gateway_cpu_ms, ... }] per round })
 * against the first, the reference: per round its rate and gateway CPU over the reference's in the same round (the
 * machine's drift between rounds cancels out), and the medians.
 */
export function diagnosticsVariants(variants) {
  const [reference] = variants;
  const ratios = (v, field) => v.samples.map((x, round) => x[field] / reference.samples[round][field]);
  return variants.map((v) => ({
    id: v.id,
    name: v.name,
    env: v.env,
    fresh_rss_mib: v.fresh_rss_mib,
    samples: v.samples,
    median_rps: median(v.samples.map((x) => x.rps)),
    median_gateway_cpu_ms: median(v.samples.map((x) => x.gateway_cpu_ms)),
    rps_vs_reference_per_round: ratios(v, 'rps').map((x) => round(x, 3)),
    gateway_cpu_vs_reference_per_round: ratios(v, 'gateway_cpu_ms').map((x) => round(x, 3)),
    median_rps_ratio: round(median(ratios(v, 'rps')), 3),
    median_gateway_cpu_ratio: round(median(ratios(v, 'gateway_cpu_ms')), 3),
  }));
}

export function diagnosticsReport(d) {
  const [base] = d.variants;
  const change = (ratio) => `${ratio >= 1 ? '+' : ''}${fmt((ratio - 1) * 100, 0)}%`;
  const range = (list) => `${int(Math.min(...list))}-${int(Math.max(...list))}`;
  const perRound = (list) => list.map((x) => change(x)).join(' ');
  const rows = d.variants.map((v) => [
    v.name,
    int(v.median_rps),
    range(v.samples.map((x) => x.rps)),
    v === base ? '' : `${change(v.median_rps_ratio)} (${perRound(v.rps_vs_reference_per_round)})`,
    fmt(v.median_gateway_cpu_ms, 2),
    v === base ? '' : `${change(v.median_gateway_cpu_ratio)} (${perRound(v.gateway_cpu_vs_reference_per_round)})`,
    v.fresh_rss_mib ?? (v === base ? d.fresh_rss_mib_as_configured : ''),
  ]);
  return `Diagnostics: ${d.path}, each variant ${d.rounds} times ${d.duration_s} s, interleaved; change = median over rounds of (variant / reference of the same round)\n\n${table(
    [
      'variant',
      'req/s (median)',
      'req/s (range)',
      'req/s change (each round)',
      'gateway CPU ms per request (median)',
      'CPU change (each round)',
      'gateway RSS MiB, fresh',
    ],
    rows,
  )}`;
}

// ------------------------------------------------------------------------------------------------ lost-and-found
/**
 * The lost-and-found table (bench/lostfound-search.mjs): p50 and p95 of each request at each size (`sizes` [{ items,
 * timings: [{ label, p50_ms, p95_ms }] }]), and with two sizes or more how much the median grew from the first to
 * the last.
 */
export function lostfoundTable(sizes) {
  const [first, last] = [sizes[0], sizes.at(-1)];
  const grew = sizes.length > 1;
  const header = ['request', ...sizes.flatMap((s) => [`p50 @${shortCount(s.items)}`, `p95 @${shortCount(s.items)}`])];
  if (grew) header.push(`p50 x (${shortCount(last.items)}/${shortCount(first.items)})`);
  const rows = first.timings.map(({ label }) => {
    const of = (size) => size.timings.find((t) => t.label === label);
    const row = [
      label,
      ...sizes.flatMap((size) => [`${of(size).p50_ms.toFixed(1)} ms`, `${of(size).p95_ms.toFixed(1)} ms`]),
    ];
    if (grew) row.push(`${(of(last).p50_ms / of(first).p50_ms).toFixed(1)}x`);
    return row;
  });
  return table(header, rows);
}
