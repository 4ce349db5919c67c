import { EXPORT_FORMATS, EXPORT_INCLUDES } from '@switchboard/contracts';
import { filterQuery, listQuery, NO_CALL_FILTERS } from './call-filters';
import {
  DEFAULT_EXPORT_CHOICE,
  EXPORT_FORMAT_CHOICES,
  exportHref,
  exportIncludes,
  exportQuery,
  exportScope,
} from './call-export';
import { dayStart } from './input';

describe("the calls page's Export", () => {
  it("offers the contracts' formats and includes (the console cannot import them as values)", () => {
    expect(EXPORT_FORMAT_CHOICES.map((choice) => choice.value)).toEqual(EXPORT_FORMATS);
    expect(exportIncludes({ format: 'csv', transcript: true, analysis: true })?.split(',')).toEqual(EXPORT_INCLUDES);
  });

  it('exports every call as CSV by default: no filter, no page, nothing included', () => {
    expect(exportHref(NO_CALL_FILTERS, DEFAULT_EXPORT_CHOICE)).toBe('/console/api/calls/export?format=csv');
    expect(exportScope(NO_CALL_FILTERS)).toBe('Every call, newest first.');
  });

  it('carries every filter the list sends, as the list sends it, and never its page or count', () => {
    const filters = {
      ...NO_CALL_FILTERS,
      q: '"gluten free" -pizza',
      number_id: 'num_7',
      from: '2026-11-01',
      to: '2026-11-30',
      outcome: 'order_placed,transferred',
      sentiment: 'negative',
      caller: '+14155550199',
      min_duration: '90',
      max_duration: '600',
    };
    const exported = exportQuery(filters, { format: 'jsonl', transcript: true, analysis: false });
    const {
      include_total: _total,
      limit: _limit,
      starting_after: _after,
      ...listed
    } = listQuery(filters, {
      limit: 20,
      starting_after: 'CA9',
    });
    expect(exported).toEqual({ ...listed, format: 'jsonl', include: 'transcript' });
    expect(exported).toEqual({ ...filterQuery(filters), format: 'jsonl', include: 'transcript' });

    const url = new URL(exportHref(filters, { format: 'jsonl', transcript: true, analysis: false }), 'https://x.test');
    expect(url.pathname).toBe('/console/api/calls/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: '"gluten free" -pizza',
      number_id: 'num_7',
      since: dayStart('2026-11-01'),
      until: dayStart('2026-11-30', true),
      outcome: 'order_placed,transferred',
      sentiment: 'negative',
      caller: '+14155550199',
      min_duration: '90',
      max_duration: '600',
      format: 'jsonl',
      include: 'transcript',
    });
    expect([...url.searchParams.keys()]).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^(limit|starting_after|include_total|after)$/)]),
    );
  });

  it('includes the transcript, the analysis, or both, in the contracts order', () => {
    expect(exportIncludes({ format: 'csv', transcript: false, analysis: false })).toBeUndefined();
    expect(exportIncludes({ format: 'csv', transcript: false, analysis: true })).toBe('analysis');
    expect(exportIncludes({ format: 'csv', transcript: true, analysis: true })).toBe('transcript,analysis');
    expect(
      new URL(
        exportHref({ ...NO_CALL_FILTERS, sentiment: 'positive' }, { format: 'csv', transcript: true, analysis: true }),
        'https://x.test',
      ).search,
    ).toBe('?sentiment=positive&format=csv&include=transcript%2Canalysis');
  });

  it('says which calls the export holds', () => {
    expect(exportScope({ ...NO_CALL_FILTERS, q: 'pizza' })).toBe('Every call matching the search, newest first.');
    expect(exportScope({ ...NO_CALL_FILTERS, sentiment: 'positive' })).toBe(
      'Every call matching the filter set, newest first.',
    );
    expect(exportScope({ ...NO_CALL_FILTERS, q: 'pizza', caller: '+14155550199', outcome: 'x' })).toBe(
      'Every call matching the search and the 2 filters set, newest first.',
    );
  });
});
