import { EXPORT_MEMORY_BOUNDS, memoryVerdict } from './call-export-verdict.mjs';

describe('the export memory verdict', () => {
  it('holds a process whose memory stays within the bounds, and not one past either', () => {
    expect(EXPORT_MEMORY_BOUNDS).toEqual({ peakAboveBeforeMib: 64, growth10To90Mib: 16 });
    expect(memoryVerdict({ before: 100, peak: 164, at10: 150, at90: 166 })).toEqual({
      peak_above_before_mib: 64,
      growth_10_to_90_mib: 16,
      held: true,
      why: [],
    });
    expect(memoryVerdict({ before: 100, peak: 165, at10: 150, at90: 150 }).why).toEqual([
      'peak 65 MiB above before, over 64',
    ]);
    expect(memoryVerdict({ before: 100, peak: 120, at10: 100, at90: 117 }).why).toEqual([
      'grew 17 MiB from 10% to 90% of the rows, over 16',
    ]);
  });

  it('misses an export that never reached 90% of its rows', () => {
    expect(memoryVerdict({ before: 100, peak: 110, at10: 105, at90: NaN }).held).toBe(false);
  });
});
