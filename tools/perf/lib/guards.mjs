// The performance guards (ADR 0134): bounds a change must not cross, read from a run's results.
// Guards, not goals: each is far enough from today's figures that run-to-run noise on a shared two-core machine does
// not trip it, and close enough that a real regression does (docs/performance.md, "Guards"; ADR 0134).
import { fmt, int, pct, table } from './common.mjs';

export const GUARDS = {
  /** GET /v1/numbers and GET /v1/calls: the system's maximum rate as a share of the same-parts floor's (median round). */
  samePartsFloorShare: 0.9,
  /** The same, as a share of the bare floor's (the machine's): the level the framework path was at (issue 53). */
  bareFloorShare: 0.35,
  /** At half the system's own maximum rate: its p99 at most this many times the same-parts floor's (median round). */
  p99FactorAtHalfRate: 3,
  /** Deliveries per second as a share of the events floor with Switchboard's hops (ADR 0134). */
  eventsHopsFloorShare: 0.5,
  /** Each service's resident memory, idle and settled (MiB). */
  idleMiB: 150,
  /** `npm start` on a built tree, from the command to its ready line, with the databases already there (seconds). */
  startupSeconds: 10,
};

/** One row per guard: { guard, measured, bound, held } (held: true, false, or undefined when not measured). */
export function apiGuards(api) {
  const routes = ['numbers', 'calls'];
  const share = (verdicts, floor, bound) =>
    routes.map((id) => {
      const v = verdicts?.[id];
      return {
        guard: `GET /v1/${id}: share of the ${floor}'s req/s`,
        measured: v ? `${pct(v.ratio)} (${int(v.system_rps)} of ${int(v.floor_rps)})` : 'not measured',
        bound: `>= ${pct(bound, 0)}`,
        held: v ? v.ratio >= bound : undefined,
      };
    });
  const p99 = routes.map((id) => {
    const v = api?.same_parts_verdict?.[id];
    return {
      guard: `GET /v1/${id}: p99 at half its max rate, times the same-parts floor's`,
      measured: v
        ? `${fmt(v.p99_factor_at_half_rate, 2)}x (${v.system_p99_ms} against ${v.floor_p99_ms} ms)`
        : 'not measured',
      bound: `<= ${GUARDS.p99FactorAtHalfRate}x`,
      held: v ? v.p99_factor_at_half_rate <= GUARDS.p99FactorAtHalfRate : undefined,
    };
  });
  return [
    ...share(api?.same_parts_verdict, 'same-parts floor', GUARDS.samePartsFloorShare),
    ...share(api?.floor_verdict, 'bare floor', GUARDS.bareFloorShare),
    ...p99,
  ];
}

export function eventsGuards(events) {
  const v = events?.hops_floor_verdict;
  return [
    {
      guard: "events: share of the floor with Switchboard's hops (deliveries/s)",
      measured: v
        ? `${pct(v.system_of_hops_floor)} (${int(v.system_per_second)} of ${int(v.hops_floor_per_second)})`
        : 'not measured',
      bound: `>= ${pct(GUARDS.eventsHopsFloorShare, 0)}`,
      held: v ? v.system_of_hops_floor >= GUARDS.eventsHopsFloorShare : undefined,
    },
    {
      guard: 'events: nothing lost or duplicated',
      measured: events?.throughput ? `lost ${events.lost}, duplicated ${events.duplicates}` : 'not measured',
      bound: '0 and 0',
      held: events?.throughput ? events.lost === 0 && events.duplicates === 0 : undefined,
    },
  ];
}

/** Each service's settled idle memory (`memory_idle_settled`: { app: { mean_mib } }) against the bound. */
export function memoryGuards(settled) {
  const entries = Object.entries(settled ?? {});
  const largest = entries.reduce(
    (top, entry) => (!top || entry[1].mean_mib > top[1].mean_mib ? entry : top),
    undefined,
  );
  return [
    {
      guard: 'idle resident memory, each service (settled)',
      measured: largest ? `${largest[1].mean_mib} MiB at most (${largest[0]})` : 'not measured',
      bound: `<= ${GUARDS.idleMiB} MiB`,
      held: largest ? entries.every(([, m]) => m.mean_mib <= GUARDS.idleMiB) : undefined,
    },
  ];
}

/** `npm start` to ready on a built tree (the second start, its databases there: what a person waits for each day). */
export function startupGuards(startup) {
  const s = startup?.existing_databases_s;
  return [
    {
      guard: '`npm start` to ready, built tree',
      measured: Number.isFinite(s)
        ? `${fmt(s, 1)} s (new databases: ${fmt(startup.new_databases_s, 1)} s)`
        : 'not measured',
      bound: `< ${GUARDS.startupSeconds} s`,
      held: Number.isFinite(s) ? s < GUARDS.startupSeconds : undefined,
    },
  ];
}

/** Every guard a bench run measured. */
export function benchGuards(results) {
  return [
    ...(results.api ? [...apiGuards(results.api), ...memoryGuards(results.api.memory_idle_settled)] : []),
    ...(results.events ? eventsGuards(results.events) : []),
    ...(results.startup ? startupGuards(results.startup) : []),
  ];
}

/** The guards as a table: HELD, MISSED, or `-` when not measured. */
export function guardsTable(rows) {
  const verdict = (held) => (held === undefined ? '-' : held ? 'held' : 'MISSED');
  return table(
    ['guard', 'measured', 'bound', 'verdict'],
    rows.map((row) => [row.guard, row.measured, row.bound, verdict(row.held)]),
  );
}

/**
 * The fault tests' guard: nothing accepted lost, no rule broken, nothing listed or billed twice. A delivery repeated
 * after a kill -9 is what at-least-once delivery allows (ADR 0075; receivers de-duplicate on the event id): counted
 * and reported, not a failure.
 */
export function chaosVerdict(tests) {
  const failures = [];
  for (const t of tests) {
    if (t.error) failures.push(`${t.test}: ${t.error.split('\n')[0]}`);
    else if (t.lost !== 0) failures.push(`${t.test}: ${t.lost} lost`);
    if (t.rule_broken) failures.push(`${t.test}: a provisioning rule was broken`);
    // A live stream must carry every logged event of its account, whatever the faults (docs/live-calls.md).
    if (t.stream?.skipped_events > 0) failures.push(`${t.test}: ${t.stream.skipped_events} live events never streamed`);
    const twice = duplicatedBeyondDelivery(t);
    if (twice > 0) failures.push(`${t.test}: ${twice} listed, billed or provisioned twice`);
  }
  return { held: failures.length === 0, failures };
}

/**
 * What a test counted twice that must happen once: calls listed or billed twice (a call's bill corrected afterwards
 * by a `talk_time_adjustment`, where no correction was due, among them); numbers or charges nobody was told of.
 */
function duplicatedBeyondDelivery(t) {
  if (t.test === 'provisions') return t.duplicated ?? 0;
  const counts = t.duplicated_by_check ?? t.checks?.duplicated ?? {};
  return (counts.calls_list ?? 0) + (counts.billing ?? 0) + (counts.adjustment ?? 0);
}
