// The targets of the calls list's filters, search and stats as an account grows (bench/calls-search.mjs), and the
// verdict of each case: a filter, `q` or the list at the large size must stay within GROWTH_FACTOR of its p99 at the
// small size and under MAX_P99_MS; the stats under STATS_MAX_P99_MS. A case with a failed request misses whatever
// its timings. A case of kind `info` is measured and shown but not judged.

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

const fmt = (ms) => (Number.isFinite(ms) ? ms.toFixed(1) : '-');
