import { EXPORT_MEMORY_BOUNDS, exportMemory, exportsTable, memoryVerdict } from './call-export-verdict.mjs';
import { tableRows } from './table-rows';

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

describe("an export's memory and table", () => {
  it('reads the peak from the samples and the 10% and 90% marks, and judges them', () => {
    const gateway = exportMemory(100.4, [101, NaN, 150.6, 120], { 1: 110, 5: 130, 9: 125 });
    expect(gateway).toMatchObject({ before_mib: 100, at_10_mib: 110, at_90_mib: 125, peak_mib: 151, held: true });
    const cut = exportMemory(100, [101], { 1: 110 });
    expect(cut).toMatchObject({ at_90_mib: NaN, held: false });
  });

  it('shows each export with its rate and each process, an export not judged marked as shown', () => {
    const memory = { gateway: exportMemory(100, [120], { 1: 110, 9: 112 }) };
    const exported = { name: 'jsonl', rows: 1_000_000, bytes: 287_600_000, seconds: 74.5, rows_per_s: 13_423 };
    const text = exportsTable(
      [
        { ...exported, judged: true, memory },
        { ...exported, name: 'first', judged: false, memory },
      ],
      ['gateway'],
    );
    const rows = tableRows(text);
    expect(rows[0]).toEqual(['export', 'rows', 'MB', 's', 'rows/s', 'gateway before/10%/90%/peak MiB', 'verdict']);
    expect(rows[2]).toEqual(['jsonl', '1,000,000', '287.6', '74.5', '13,423', '100/110/112/120', 'held']);
    expect(rows[3].at(-1)).toBe('(shown) held');
  });
});
