// The verdict of tools/perf/bench/call-export.mjs: a process's resident memory stays flat while an export streams.

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
