import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CallStatsGroup } from '@switchboard/contracts';
import { formatDay, humanize } from '../format';

/** The outcomes drawn in a colour of their own, most calls first; the rest are drawn together as "Other". */
const OUTCOME_COLOURS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00'];
const OTHER_COLOUR = '#98a2b3';
const RATE_COLOUR = '#101828';
/** Another name than any outcome's key (`o0`, `o1`, ...): recharts reads a key with a dot as a path. */
const OTHER_KEY = 'other';

/** A day's success rate (0..1, null when the agent judged none of its calls) as a percentage. */
function percent(rate: number | null | undefined): number | null {
  return rate === null || rate === undefined ? null : Math.round(rate * 1000) / 10;
}

/** The outcomes of the range, most calls first. */
function rankedOutcomes(days: readonly CallStatsGroup[]): string[] {
  const totals = new Map<string, number>();
  for (const day of days)
    for (const [outcome, calls] of Object.entries(day.outcomes ?? {}))
      totals.set(outcome, (totals.get(outcome) ?? 0) + calls);
  return [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([outcome]) => outcome);
}

/**
 * Calls per day, stacked by outcome (bars), and the share of the calls the agent judged that it judged successful
 * (line, right axis), from GET /calls/stats?group_by=day. The same numbers are a table for screen readers and
 * keyboards: the drawing itself is hidden from them (and recharts' keyboard layer is off), as in UsageChart.
 */
export function CallsChart({ days, caption }: { days: CallStatsGroup[]; caption: string }) {
  const outcomes = rankedOutcomes(days);
  // With one outcome too many for the colours, the last colour's place goes to "Other" (two or more outcomes).
  const drawn = outcomes.length > OUTCOME_COLOURS.length ? outcomes.slice(0, OUTCOME_COLOURS.length - 1) : outcomes;
  const others = outcomes.slice(drawn.length);
  const rows = days.map((day) => {
    const row: Record<string, string | number | null> = { day: formatDay(day.group), rate: percent(day.success_rate) };
    drawn.forEach((outcome, index) => (row[`o${index}`] = day.outcomes?.[outcome] ?? 0));
    if (others.length) row[OTHER_KEY] = others.reduce((sum, outcome) => sum + (day.outcomes?.[outcome] ?? 0), 0);
    return row;
  });
  const judged = days.some((day) => day.success_rate !== null);
  const busiest = Math.max(0, ...days.map((day) => day.calls));
  return (
    <figure className="chart" data-testid="calls-chart">
      <figcaption className="hint">
        {caption}{' '}
        {judged
          ? 'The line is the success rate: of the calls the agent judged, the share it judged successful.'
          : 'No success rate: the agent judged none of these calls.'}
      </figcaption>
      <div className="chart-area" aria-hidden="true">
        <ResponsiveContainer width="100%" height={300}>
          <ComposedChart accessibilityLayer={false} data={rows} margin={{ top: 8, right: 0, bottom: 0, left: -16 }}>
            <CartesianGrid stroke="#e4e7ec" vertical={false} />
            <XAxis
              dataKey="day"
              tick={{ fontSize: 12, fill: '#475467' }}
              interval="preserveStartEnd"
              minTickGap={24}
              tickLine={false}
              axisLine={{ stroke: '#d0d5dd' }}
            />
            <YAxis
              yAxisId="calls"
              allowDecimals={false}
              // A few calls a day: one tick per call (0, 1, 2), not recharts' five (0 to 4 for one call).
              domain={busiest < 4 ? [0, Math.max(1, busiest)] : [0, 'auto']}
              tickCount={busiest < 4 ? Math.max(1, busiest) + 1 : 5}
              tick={{ fontSize: 12, fill: '#475467' }}
              tickLine={false}
              axisLine={false}
            />
            <YAxis
              yAxisId="rate"
              orientation="right"
              domain={[0, 100]}
              ticks={[0, 50, 100]}
              tickFormatter={(value: number) => `${value}%`}
              tick={{ fontSize: 12, fill: '#475467' }}
              tickLine={false}
              axisLine={false}
              width={44}
            />
            <Tooltip
              formatter={(value, name) => (name === 'Success rate' && typeof value === 'number' ? `${value}%` : value)}
            />
            {/* In the bars' order, most calls first (recharts would sort the names alphabetically). */}
            <Legend itemSorter={null} wrapperStyle={{ fontSize: 13, lineHeight: '20px' }} />
            {drawn.map((outcome, index) => (
              <Bar
                key={outcome}
                yAxisId="calls"
                dataKey={`o${index}`}
                name={humanize(outcome)}
                stackId="calls"
                fill={OUTCOME_COLOURS[index]}
                isAnimationActive={false}
              />
            ))}
            {others.length ? (
              <Bar
                yAxisId="calls"
                dataKey={OTHER_KEY}
                name="Other outcomes"
                stackId="calls"
                fill={OTHER_COLOUR}
                isAnimationActive={false}
              />
            ) : null}
            {judged ? (
              <Line
                yAxisId="rate"
                dataKey="rate"
                name="Success rate"
                stroke={RATE_COLOUR}
                strokeWidth={2}
                dot={{ r: 2.5, fill: RATE_COLOUR }}
                type="linear"
                connectNulls={false}
                isAnimationActive={false}
              />
            ) : null}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <details className="chart-table">
        <summary>Show as a table</summary>
        <div className="table-wrap">
          <table className="table table--compact">
            <caption className="visually-hidden">Calls per day by outcome, and the success rate</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="num">
                  Calls
                </th>
                <th scope="col">Outcomes</th>
                <th scope="col" className="num">
                  Success rate
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.group}>
                  <td data-label="Day">{formatDay(day.group)}</td>
                  <td data-label="Calls" className="num">
                    {day.calls}
                  </td>
                  <td data-label="Outcomes">
                    {Object.entries(day.outcomes ?? {})
                      .sort((a, b) => b[1] - a[1])
                      .map(([outcome, calls]) => `${humanize(outcome)}: ${calls}`)
                      .join(', ') || 'none'}
                  </td>
                  <td data-label="Success rate" className="num">
                    {day.success_rate === null ? 'not judged' : `${percent(day.success_rate)}%`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
