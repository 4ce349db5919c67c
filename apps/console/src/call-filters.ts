// The calls page's search and filters: kept in the address (shareable, and the back button goes back a search), read
// into the form, and sent as GET /calls's query (ListCallsQuery) and the chart's GET /calls/stats. Pure functions,
// unit-tested (call-filters.spec.ts).
import type { CallSentiment } from '@switchboard/contracts';
import type { paths } from './console-api/generated/openapi';
import { dayStart, minutesToSeconds, normalizeCaller, secondsToMinutes } from './input';

/** GET /console/api/calls's query (ListCallsQuery), as the API's description types it. */
export type CallsQuery = NonNullable<paths['/console/api/calls']['get']['parameters']['query']>;
/** The filters both the list and the export take. */
export type CallFilterQuery = Omit<CallsQuery, 'limit' | 'starting_after' | 'include_total'>;

/** The address's parameters, in the order a shared link writes them. Durations in seconds, as the API's. */
export const CALL_FILTERS = [
  'q',
  'number_id',
  'from',
  'to',
  'outcome',
  'sentiment',
  'caller',
  'min_duration',
  'max_duration',
] as const;
export type CallFilterName = (typeof CALL_FILTERS)[number];
export type CallFilters = Record<CallFilterName, string>;

export const NO_CALL_FILTERS: CallFilters = Object.freeze(
  Object.fromEntries(CALL_FILTERS.map((name) => [name, ''])) as CallFilters,
);

/** CALL_SENTIMENTS of the contracts (the console takes their types only). */
export const SENTIMENTS = ['positive', 'neutral', 'negative', 'unknown'] as const;

/** The chart's range when the page names no dates: the API's default (DEFAULT_STATS_DAYS). */
export const DEFAULT_CHART_DAYS = 30;
/** The longest range the stats take (MAX_STATS_DAYS): the chart asks for no more. */
export const MAX_CHART_DAYS = 366;
const DAY_MS = 86_400_000;

export function callFiltersOf(params: URLSearchParams): CallFilters {
  return Object.fromEntries(CALL_FILTERS.map((name) => [name, params.get(name)?.trim() ?? ''])) as CallFilters;
}

/** The filters as the address's query: only those set, in a fixed order (no page cursor: a new search starts over). */
export function callFilterSearch(filters: CallFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const name of CALL_FILTERS) if (filters[name]) search.set(name, filters[name]);
  return search;
}

/** How many filters are set (the search included), for "Filters (2)". */
export function activeFilterCount(filters: CallFilters, leaveOut: readonly CallFilterName[] = []): number {
  return CALL_FILTERS.filter((name) => filters[name] && !leaveOut.includes(name)).length;
}

/** `order_placed,transferred` as its outcomes. */
export function outcomesOf(value: string): string[] {
  return value
    .split(',')
    .map((outcome) => outcome.trim())
    .filter(Boolean);
}

/**
 * The filters as the API's query parameters (ListCallsQuery's filters): the days as instants, the last day included.
 * Shared by the list and the export (call-export.ts), so both select the same calls.
 */
export function filterQuery(filters: CallFilters): CallFilterQuery {
  return {
    q: filters.q || undefined,
    number_id: filters.number_id || undefined,
    since: dayStart(filters.from),
    until: dayStart(filters.to, true),
    outcome: filters.outcome || undefined,
    // The form offers SENTIMENTS alone; another word typed into the address goes as written, and the API's 400
    // names it at the field, as for every other filter.
    sentiment: (filters.sentiment || undefined) as CallSentiment | undefined,
    caller: filters.caller || undefined,
    // Number() reads the address's seconds as the API does (text that is no number: NaN, refused by name).
    min_duration: filters.min_duration ? Number(filters.min_duration) : undefined,
    max_duration: filters.max_duration ? Number(filters.max_duration) : undefined,
  };
}

/**
 * GET /calls's query for the filters (filterQuery), the count of all matching calls when anything is filtered (the
 * page says how many match), and the page.
 */
export function listQuery(filters: CallFilters, page: { limit: number; starting_after?: string }): CallsQuery {
  return {
    ...filterQuery(filters),
    include_total: activeFilterCount(filters) > 0 ? true : undefined,
    limit: page.limit,
    starting_after: page.starting_after || undefined,
  };
}

/**
 * The chart's range: the page's dates when it names them (the last day included), else the API's default, the
 * `DEFAULT_CHART_DAYS` days before now (or before the end date). `tooLong` when it spans more than the stats take.
 */
export function chartRange(
  filters: Pick<CallFilters, 'from' | 'to'>,
  now: Date = new Date(),
): { since?: string; until?: string; tooLong: boolean } {
  const since = dayStart(filters.from);
  const until = dayStart(filters.to, true);
  const end = until ? Date.parse(until) : now.getTime();
  const start = since ? Date.parse(since) : end - DEFAULT_CHART_DAYS * DAY_MS;
  return { since, until, tooLong: end - start > MAX_CHART_DAYS * DAY_MS };
}

/** The filter form's values: the outcomes as a list, durations in minutes (the address keeps seconds). */
export interface CallFilterDraft {
  q: string;
  number_id: string;
  from: string;
  to: string;
  outcomes: string[];
  sentiment: string;
  caller: string;
  min_minutes: string;
  max_minutes: string;
}

export function draftOf(filters: CallFilters): CallFilterDraft {
  return {
    q: filters.q,
    number_id: filters.number_id,
    from: filters.from,
    to: filters.to,
    outcomes: outcomesOf(filters.outcome),
    sentiment: filters.sentiment,
    caller: filters.caller,
    min_minutes: secondsToMinutes(filters.min_duration),
    max_minutes: secondsToMinutes(filters.max_duration),
  };
}

/** The form's problems, by the name of its input, found before anything is sent. */
export type CallFilterProblems = Partial<Record<'to' | 'min_minutes' | 'max_minutes', string>>;

/** The form read as filters, or what is wrong with it (the rest, such as a caller's form, the API checks). */
export function filtersOfDraft(
  draft: CallFilterDraft,
): { filters: CallFilters; problems?: undefined } | { filters?: undefined; problems: CallFilterProblems } {
  const problems: CallFilterProblems = {};
  if (draft.from && draft.to && draft.from > draft.to) problems.to = 'The start date is after the end date.';
  const min = minutesToSeconds(draft.min_minutes);
  const max = minutesToSeconds(draft.max_minutes);
  if (min === undefined) problems.min_minutes = 'Type a number of minutes, such as 2 or 1.5.';
  if (max === undefined) problems.max_minutes = 'Type a number of minutes, such as 2 or 1.5.';
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    problems.max_minutes = 'The longest is shorter than the shortest.';
  if (Object.keys(problems).length > 0) return { problems };
  return {
    filters: {
      q: draft.q.trim().replace(/\s+/g, ' '),
      number_id: draft.number_id,
      from: draft.from,
      to: draft.to,
      outcome: draft.outcomes.join(','),
      sentiment: draft.sentiment,
      caller: normalizeCaller(draft.caller),
      min_duration: String(min ?? ''),
      max_duration: String(max ?? ''),
    },
  };
}
