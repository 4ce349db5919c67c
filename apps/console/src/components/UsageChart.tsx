import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DailyUsageDay } from '@switchboard/contracts';
import { formatDay, talkMinutes } from '../format';

/**
 * Calls (bars) and minutes (line, whole minutes rounded down as everywhere: docs/money-and-minutes.md) per day, with the same numbers as a table for screen readers and keyboards: the
 * drawing itself is hidden from them (and recharts' own keyboard layer is off, so nothing hidden takes focus).
 */
export function UsageChart({ days }: { days: DailyUsageDay[] }) {
  const rows = days.map((day) => ({
    day: formatDay(day.date),
    calls: day.calls,
    minutes: talkMinutes(day.seconds),
  }));
  const totalCalls = days.reduce((sum, day) => sum + day.calls, 0);
  // Minutes of the summed seconds, not a sum of each day's minutes: the same count the balance's summary writes.
  const totalMinutes = talkMinutes(days.reduce((sum, day) => sum + day.seconds, 0));
  return (
    <figure className="chart" data-testid="usage-chart">
      <figcaption className="hint">
        {totalCalls} {totalCalls === 1 ? 'call' : 'calls'} and {totalMinutes}{' '}
        {totalMinutes === 1 ? 'minute' : 'minutes'} in the last {days.length} days.
      </figcaption>
      <div className="chart-area" aria-hidden="true">
        <ResponsiveContainer width="100%" height={260}>
          <ComposedChart accessibilityLayer={false} data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
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
              tick={{ fontSize: 12, fill: '#475467' }}
              tickLine={false}
              axisLine={false}
            />
            <YAxis
              yAxisId="minutes"
              orientation="right"
              allowDecimals={false}
              tick={{ fontSize: 12, fill: '#475467' }}
              tickLine={false}
              axisLine={false}
            />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 13 }} />
            <Bar
              yAxisId="calls"
              dataKey="calls"
              name="Calls"
              fill="#4f46e5"
              radius={[3, 3, 0, 0]}
              isAnimationActive={false}
            />
            <Line
              yAxisId="minutes"
              dataKey="minutes"
              name="Minutes"
              stroke="#b54708"
              strokeWidth={2}
              dot={false}
              type="linear"
              isAnimationActive={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <details className="chart-table">
        <summary>Show as a table</summary>
        <div className="table-wrap">
          <table className="table table--compact">
            <caption className="visually-hidden">Calls and minutes per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="num">
                  Calls
                </th>
                <th scope="col" className="num">
                  Minutes
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date}>
                  <td>{formatDay(day.date)}</td>
                  <td className="num">{day.calls}</td>
                  <td className="num">{talkMinutes(day.seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
