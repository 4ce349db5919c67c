// The verdict of tools/perf/bench/call-export.mjs: a process's resident memory stays flat while an export streams.
import { fmt, int, table } from './common.mjs';

/** The bounds, in MiB: the peak above what the process used before, and the growth from 10% to 90% of the rows. */
export const EXPORT_MEMORY_BOUNDS = { peakAboveBeforeMib: 64, growth10To90Mib: 16 };

/**
 * One process's verdict for one export, from its RSS before the export, its peak during it, and at 10% and 90% of the
 * rows streamed (a missing sample counts as a miss: the export did not get that far).
 */
export function memoryVerdict({ before, peak, at10, at90 }) {
  const peakAbove = peak - before;
  const growth = at90 - at10;
  const why = [];
  if (!(peakAbove <= EXPORT_MEMORY_BOUNDS.peakAboveBeforeMib))
    why.push(`peak ${Math.round(peakAbove)} MiB above before, over ${EXPORT_MEMORY_BOUNDS.peakAboveBeforeMib}`);
  if (!(growth <= EXPORT_MEMORY_BOUNDS.growth10To90Mib))
    why.push(
      `grew ${Math.round(growth)} MiB from 10% to 90% of the rows, over ${EXPORT_MEMORY_BOUNDS.growth10To90Mib}`,
    );
  return {
    peak_above_before_mib: Math.round(peakAbove),
    growth_10_to_90_mib: Math.round(growth),
    held: why.length === 0,
    why,
  };
}

/**
 * A process's memory during one export, in MiB, and its verdict: `before` the export, `samples` every 250 ms while it
 * streamed, and `marks` { tenth: RSS } as each tenth of the rows went by.
 */
export function exportMemory(before, samples, marks) {
  const peak = Math.max(...samples.filter(Number.isFinite));
  return {
    before_mib: Math.round(before),
    at_10_mib: Math.round(marks[1] ?? NaN),
    at_90_mib: Math.round(marks[9] ?? NaN),
    peak_mib: Math.round(peak),
    ...memoryVerdict({ before, peak, at10: marks[1] ?? Infinity, at90: marks[9] ?? Infinity }),
  };
}

/** The exports as a table: size, time, rate, and each process of `watched`'s memory and verdict (`(shown)` unjudged). */
export function exportsTable(exports, watched) {
  return table(
    ['export', 'rows', 'MB', 's', 'rows/s', ...watched.flatMap((app) => [`${app} before/10%/90%/peak MiB`, 'verdict'])],
    exports.map((e) => [
      e.name,
      int(e.rows),
      fmt(e.bytes / 1e6),
      fmt(e.seconds),
      int(e.rows_per_s),
      ...watched.flatMap((app) => {
        const m = e.memory[app];
        const verdict = m.held ? 'held' : m.why.join('; ');
        return [
          `${m.before_mib}/${m.at_10_mib}/${m.at_90_mib}/${m.peak_mib}`,
          e.judged ? verdict : `(shown) ${verdict}`,
        ];
      }),
    ]),
  );
}
