import { CALL_SENTIMENTS, DEFAULT_STATS_DAYS, MAX_STATS_DAYS } from '@switchboard/contracts';
import {
  DEFAULT_CHART_DAYS,
  MAX_CHART_DAYS,
  NO_CALL_FILTERS,
  SENTIMENTS,
  activeFilterCount,
  callFilterSearch,
  callFiltersOf,
  chartRange,
  draftOf,
  filtersOfDraft,
  listQuery,
} from './call-filters';
import { dayStart } from './input';

describe("the calls page's search and filters", () => {
  it("uses the contracts' sentiments and the stats' ranges (the console cannot import them as values)", () => {
    expect(SENTIMENTS).toEqual(CALL_SENTIMENTS);
    expect([DEFAULT_CHART_DAYS, MAX_CHART_DAYS]).toEqual([DEFAULT_STATS_DAYS, MAX_STATS_DAYS]);
  });

  it('keeps the filters in the address and reads them back the same, the page cursor left out', () => {
    const params = new URLSearchParams(
      'after=CA9&caller=%2B14155550199&q=%22gluten+free%22+-pizza&outcome=order_placed,transferred&min_duration=90',
    );
    const filters = callFiltersOf(params);
    expect(filters).toEqual({
      ...NO_CALL_FILTERS,
      q: '"gluten free" -pizza',
      caller: '+14155550199',
      outcome: 'order_placed,transferred',
      min_duration: '90',
    });
    expect(callFilterSearch(filters).toString()).toBe(
      'q=%22gluten+free%22+-pizza&outcome=order_placed%2Ctransferred&caller=%2B14155550199&min_duration=90',
    );
    expect(callFiltersOf(callFilterSearch(filters))).toEqual(filters);
    expect(activeFilterCount(filters)).toBe(4);
    expect(activeFilterCount(filters, ['q'])).toBe(3);
  });

  it('reads the form into filters: minutes as seconds, a pasted caller in E.164, and says what is wrong', () => {
    const draft = draftOf({ ...NO_CALL_FILTERS, outcome: 'a,b', min_duration: '90' });
    expect(draft.outcomes).toEqual(['a', 'b']);
    expect(draft.min_minutes).toBe('1.5');
    expect(
      filtersOfDraft({ ...draft, q: '  gluten   free ', caller: '+1 (415) 555-0199', max_minutes: '3' }).filters,
    ).toEqual({
      ...NO_CALL_FILTERS,
      q: 'gluten free',
      outcome: 'a,b',
      caller: '+14155550199',
      min_duration: '90',
      max_duration: '180',
    });
    expect(filtersOfDraft({ ...draft, min_minutes: 'two', max_minutes: '1' }).problems).toEqual({
      min_minutes: 'Type a number of minutes, such as 2 or 1.5.',
    });
    expect(filtersOfDraft({ ...draft, min_minutes: '3', max_minutes: '1' }).problems).toEqual({
      max_minutes: 'The longest is shorter than the shortest.',
    });
    expect(filtersOfDraft({ ...draft, from: '2026-11-20', to: '2026-11-19' }).problems).toEqual({
      to: 'The start date is after the end date.',
    });
  });

  it('asks the API for the days as instants, and for the total only when something is filtered', () => {
    expect(listQuery(NO_CALL_FILTERS, { limit: 20 })).toEqual(
      expect.objectContaining({ include_total: undefined, limit: 20, since: undefined, q: undefined }),
    );
    const query = listQuery({ ...NO_CALL_FILTERS, to: '2026-11-20', sentiment: 'negative' }, { limit: 20 });
    expect(query).toMatchObject({
      until: dayStart('2026-11-20', true),
      sentiment: 'negative',
      include_total: true,
    });
  });

  it("gives the chart the page's dates, else the last 30 days, and says when the range is longer than a stats request", () => {
    const now = new Date('2026-12-01T12:00:00Z');
    expect(chartRange({ from: '', to: '' }, now)).toEqual({ since: undefined, until: undefined, tooLong: false });
    expect(chartRange({ from: '2026-11-01', to: '2026-11-30' }, now)).toEqual({
      since: dayStart('2026-11-01'),
      until: dayStart('2026-11-30', true),
      tooLong: false,
    });
    expect(chartRange({ from: '2024-01-01', to: '' }, now).tooLong).toBe(true);
    expect(chartRange({ from: '2025-01-01', to: '2026-01-01' }, now).tooLong).toBe(false);
    expect(chartRange({ from: '2025-01-01', to: '2026-01-02' }, now).tooLong).toBe(true);
  });
});
