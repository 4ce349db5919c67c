// The targets of the calls list's filters, search and stats as an account grows (bench/calls-search.mjs), and the
// verdict of each case: a filter, `q` or the list at the large size must stay within GROWTH_FACTOR of its p99 at the
// small size and under MAX_P99_MS; the stats under STATS_MAX_P99_MS. A case with a failed request misses whatever
// its timings. A case of kind `info` is measured and shown but not judged.
import { fmt, table } from './common.mjs';

export const TARGETS = Object.freeze({
  /** p99 at the large size over p99 at the small size, at most. */
  growthFactor: 3,
  /** p99 at the large size of the list, each filter and `q`: under this many ms. */
  maxP99Ms: 250,
  /** p99 of `GET /v1/calls/stats` at the large size: under this many ms. */
  statsMaxP99Ms: 250,
});

/**
 * The verdict of one case from its two measurements ({ p99_ms, count, failed }): `held` (true, false, or undefined
 * when a measurement is missing), the growth `factor`, and `why` it missed. `kind` is `stats` for the stats route,
 * anything else for the list (plain, filtered, searched, counted).
 */
export function caseVerdict(kind, small, large, targets = TARGETS) {
  if (kind === 'info') return { held: undefined, factor: ratio(small, large), why: [] };
  if (!large || !Number.isFinite(large.p99_ms)) return { held: undefined, factor: NaN, why: ['not measured'] };
  const why = [];
  const failures = (m) => (m?.failed ?? 0) > 0;
  if (failures(large)) why.push(`${large.failed} of ${large.count + large.failed} requests failed at the large size`);
  if (failures(small)) why.push(`${small.failed} of ${small.count + small.failed} requests failed at the small size`);
  const factor = ratio(small, large);
  if (kind === 'stats') {
    if (!(large.p99_ms < targets.statsMaxP99Ms))
      why.push(`p99 ${fmt(large.p99_ms)} ms, not under ${targets.statsMaxP99Ms}`);
    return { held: why.length === 0, factor, why };
  }
  if (!Number.isFinite(factor)) why.push('no p99 at the small size to compare with');
  else if (factor > targets.growthFactor)
    why.push(
      `p99 grew ${factor.toFixed(2)}x (${fmt(small.p99_ms)} -> ${fmt(large.p99_ms)} ms), over ${targets.growthFactor}x`,
    );
  if (!(large.p99_ms < targets.maxP99Ms)) why.push(`p99 ${fmt(large.p99_ms)} ms, not under ${targets.maxP99Ms}`);
  return { held: why.length === 0, factor, why };
}

const ratio = (small, large) =>
  small && large && Number.isFinite(small.p99_ms) && small.p99_ms > 0 ? large.p99_ms / small.p99_ms : NaN;

/** The bound a case is judged against, in words (for the table). */
export function boundOf(kind, targets = TARGETS) {
  if (kind === 'info') return 'shown, not judged';
  return kind === 'stats'
    ? `p99 < ${targets.statsMaxP99Ms} ms`
    : `p99 <= ${targets.growthFactor}x small and < ${targets.maxP99Ms} ms`;
}

/**
 * Every case's verdict: `cases` [{ id, label, kind }], `small` and `large` { id: measurement }. Returns the rows in
 * the cases' order and `held`: true only when every judged case held (a case not measured does not hold; a case of
 * kind `info` is shown, not judged).
 */
export function verdicts(cases, small, large, targets = TARGETS) {
  const rows = cases.map((c) => ({
    id: c.id,
    label: c.label,
    kind: c.kind,
    bound: boundOf(c.kind, targets),
    ...caseVerdict(c.kind, small[c.id], large[c.id], targets),
  }));
  const judged = rows.filter((row) => row.kind !== 'info');
  return { rows, held: judged.length > 0 && judged.every((row) => row.held === true) };
}

/**
 * The cases as a table (`rows`: `verdicts`' rows): each case's p50 and p99 at the small and the large size (`*` a
 * measurement disturbed by other processes, `!` one with failed requests), the factor, rows, the CPU per request of
 * the database connections labelled `db`, the small account beside the large one, and the verdict. `measured`:
 * { small, large, small_beside_large } of { case id: measurement }; `labels`: the sizes' names and `db`.
 */
export function casesTable(rows, measured, { small: S, large: L, db }) {
  const mark = (m) => (m?.disturbed ? '*' : '') + (m?.failed ? '!' : '');
  const ms = (value) => fmt(value, 2);
  return table(
    [
      'case',
      `p50 @${S}`,
      `p99 @${S}`,
      `p50 @${L}`,
      `p99 @${L}`,
      'p99 x',
      `rows @${S}, @${L}`,
      `DB CPU ms/req @${S}, @${L}`,
      `B: p50 @${S} beside ${L}`,
      'B: p99',
      'verdict',
    ],
    rows.map((v) => {
      const [sm, lg, bs] = [measured.small[v.id], measured.large[v.id], measured.small_beside_large[v.id]];
      return [
        v.label,
        ms(sm.p50_ms),
        `${ms(sm.p99_ms)}${mark(sm)}`,
        ms(lg.p50_ms),
        `${ms(lg.p99_ms)}${mark(lg)}`,
        `${ms(v.factor)}x`,
        `${sm.rows_median}, ${lg.rows_median}${lg.total_count !== undefined ? ` (total ${sm.total_count}, ${lg.total_count})` : ''}`,
        `${ms(sm.cpu_ms_per_request[db] ?? 0)}, ${ms(lg.cpu_ms_per_request[db] ?? 0)}`,
        ms(bs.p50_ms),
        `${ms(bs.p99_ms)}${mark(bs)}`,
        v.kind === 'info' ? 'shown' : v.held === true ? 'held' : v.held === false ? 'MISSED' : '-',
      ];
    }),
  );
}
