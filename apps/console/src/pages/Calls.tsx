import { Fragment, lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { api, ApiError, type Schemas } from '../api';
import {
  DEFAULT_EXPORT_CHOICE,
  EXPORT_FORMAT_CHOICES,
  exportHref,
  exportScope,
  type ExportChoice,
} from '../call-export';
import {
  CALL_FILTERS,
  SENTIMENTS,
  activeFilterCount,
  callFilterSearch,
  callFiltersOf,
  chartRange,
  draftOf,
  filtersOfDraft,
  listQuery,
  MAX_CHART_DAYS,
  NO_CALL_FILTERS,
  outcomesOf,
  type CallFilterDraft,
  type CallFilterProblems,
  type CallFilters,
} from '../call-filters';
import { usePhoneWidth } from '../components/desk';
import { LiveNow } from '../components/LiveNow';
import {
  Button,
  CursorPager,
  Empty,
  Field,
  Listing,
  LoadError,
  Loading,
  Notice,
  PageHeader,
  StatusBadge,
  useDraft,
  useLoad,
} from '../components/ui';
import { formatDay, formatDuration, formatTime, humanize } from '../format';
import { splitMatch } from '../match';
import { allNumbers } from './Numbers';

export const CALLS_PER_PAGE = 20;

// The chart carries recharts (two thirds of the script): the list shows first, the chart when its code has loaded.
const CallsChart = lazy(() => import('../components/CallsChart').then((module) => ({ default: module.CallsChart })));

/** How far back the outcome filter's choices look: the longest range one stats request takes, less a day. */
const OUTCOME_CHOICE_DAYS = MAX_CHART_DAYS - 1;

/** The cursors of the pages before this one, kept in the history entry so "Previous" and Back agree. */
function trailOf(state: unknown): string[] {
  const trail = (state as { trail?: unknown } | null)?.trail;
  return Array.isArray(trail) ? trail.filter((cursor): cursor is string => typeof cursor === 'string') : [];
}

export function CallsPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const filters = callFiltersOf(params);
  const filterKey = CALL_FILTERS.map((name) => filters[name]).join('\n');
  const after = params.get('after') ?? '';
  const trail = trailOf(location.state);
  const numbers = useLoad(allNumbers, []);
  const calls = useLoad(
    () =>
      api.GET('/console/api/calls', {
        params: { query: listQuery(filters, { limit: CALLS_PER_PAGE, starting_after: after }) },
      }),
    [filterKey, after],
  );
  const range = chartRange(filters);
  const stats = useLoad(
    () =>
      range.tooLong
        ? Promise.resolve(undefined)
        : api.GET('/console/api/calls/stats', {
            params: {
              query: { group_by: 'day', number_id: filters.number_id, since: range.since, until: range.until },
            },
          }),
    [filters.number_id, range.since, range.until, range.tooLong],
  );
  const [outcomeSince] = useState(() => new Date(Date.now() - OUTCOME_CHOICE_DAYS * 86_400_000).toISOString());
  // The outcome filter's choices: the account's outcomes of the last year, most calls first. Without them (a failed
  // request), the chart's and the address's outcomes still are.
  const outcomeStats = useLoad(
    () =>
      api
        .GET('/console/api/calls/stats', { params: { query: { group_by: 'outcome', since: outcomeSince } } })
        .catch((): Schemas['CallStats'] => ({ data: [] })),
    [outcomeSince],
  );
  const outcomeChoices = unique([
    ...(outcomeStats.data?.data ?? []).map((group) => group.group),
    ...(stats.data?.data ?? []).flatMap((day) => Object.keys(day.outcomes ?? {})),
    ...outcomesOf(filters.outcome),
  ]);

  const apply = (next: CallFilters) => setParams(callFilterSearch(next), { state: { trail: [] } });
  const goTo = (cursor: string, nextTrail: string[]) => {
    const next = new URLSearchParams(params);
    if (cursor) next.set('after', cursor);
    else next.delete('after');
    setParams(next, { state: { trail: nextTrail } });
  };
  const nextPage = () => {
    const data = calls.data?.data ?? [];
    if (data.length === 0) return;
    goTo(data[data.length - 1].id, [...trail, after]);
  };
  const previousPage = () => goTo(trail[trail.length - 1] ?? '', trail.slice(0, -1));

  const filtered = activeFilterCount(filters) > 0;
  const apiFields = calls.error instanceof ApiError && calls.error.status === 400 ? calls.error.fields : undefined;
  const numberText = filters.number_id
    ? ` to ${numbers.data?.find((number) => number.id === filters.number_id)?.phone_number ?? 'this number'}`
    : '';
  const chartFilteredOut = activeFilterCount(filters, ['number_id', 'from', 'to']) > 0;
  const chartCalls = (stats.data?.data ?? []).reduce((sum, day) => sum + day.calls, 0);
  const phoneOf = (numberId: string) => numbers.data?.find((number) => number.id === numberId)?.phone_number;
  // A call that started shows in the list as in progress, one that ended with its outcome and in the chart.
  const liveCallsChanged = () => {
    calls.reload();
    stats.reload();
  };

  return (
    <section>
      <PageHeader
        title="Calls"
        description="Every call your numbers answered, newest first. Search what was said, or filter by outcome, sentiment, length and caller."
      >
        <ExportControl filters={filters} />
      </PageHeader>
      <LiveNow phoneOf={phoneOf} onListChanged={liveCallsChanged} />
      <CallFilterForm
        filters={filters}
        filterKey={filterKey}
        numbers={numbers.data ?? []}
        outcomes={outcomeChoices}
        apiFields={apiFields}
        onApply={apply}
      />

      <section className="card" aria-labelledby="calls-chart-title">
        <h2 id="calls-chart-title">Calls per day by outcome</h2>
        {range.tooLong ? (
          <Notice tone="info">The chart covers at most {MAX_CHART_DAYS} days: choose a shorter range to see it.</Notice>
        ) : stats.error ? (
          <LoadError error={stats.error} retry={stats.reload} />
        ) : !stats.data ? (
          <Loading what="the chart" />
        ) : chartCalls === 0 ? (
          <Empty>
            No calls{numberText} {rangeText(filters)}.
          </Empty>
        ) : (
          <Suspense fallback={<Loading what="the chart" />}>
            <CallsChart
              days={stats.data.data}
              caption={`${chartCalls} ${chartCalls === 1 ? 'call' : 'calls'}${numberText} ${rangeText(filters)}, by UTC day.`}
            />
          </Suspense>
        )}
        {chartFilteredOut && !range.tooLong ? (
          <p className="hint">
            The chart counts every call of its days: the search and the other filters narrow the list only.
          </p>
        ) : null}
      </section>

      <h2 className="visually-hidden">Calls</h2>
      {calls.data && filtered && calls.data.total_count !== undefined && calls.data.data.length > 0 ? (
        <p className="result-count" data-testid="calls-count">
          {calls.data.total_count_capped
            ? `More than ${calls.data.total_count.toLocaleString('en-US')} calls match.`
            : `${calls.data.total_count.toLocaleString('en-US')} ${calls.data.total_count === 1 ? 'call matches' : 'calls match'}.`}
        </p>
      ) : null}
      <Listing
        load={calls}
        rows={calls.data?.data}
        what="calls"
        empty={
          filters.q
            ? `No calls match “${filters.q}”${activeFilterCount(filters, ['q']) > 0 ? ' with these filters' : ''}. Try other words, or fewer of them.`
            : filtered
              ? 'No calls match these filters.'
              : 'No calls yet. They appear here as soon as one of your numbers answers.'
        }
        caption={filters.q ? `Calls matching “${filters.q}”, newest first` : 'Calls, newest first'}
        testId="calls-table"
        rowKey={(call) => call.id}
        rowAttributes={(call) => ({ 'data-call-id': call.id })}
        columns={[
          {
            header: 'Started',
            cell: (call) => <Link to={`/calls/${encodeURIComponent(call.id)}`}>{formatTime(call.started_at)}</Link>,
          },
          { header: 'Caller', cell: (call) => call.caller },
          { header: 'Number', cell: (call) => call.phone_number },
          { header: 'Duration', cell: (call) => formatDuration(call.duration_sec) },
          { header: 'Outcome', cell: (call) => humanize(call.outcome) },
          { header: 'Status', cell: (call) => <StatusBadge status={call.status} /> },
          Boolean(filters.q) && {
            header: 'Match',
            className: 'match-cell',
            cell: (call) =>
              call.match ? <MatchSnippet match={call.match} /> : <span className="muted">none shown</span>,
          },
        ]}
      />
      <CursorPager
        label="Pages of calls"
        onPrevious={previousPage}
        onNext={nextPage}
        hasPrevious={Boolean(after)}
        hasNext={Boolean(calls.data?.has_more)}
      />
    </section>
  );
}

/**
 * "Export": the calls of the applied filters (the address's, not the form's unapplied draft), every page of them, as
 * a file. A plain link: the browser sends the session cookie with the GET and saves what the server sends as an
 * attachment.
 */
function ExportControl({ filters }: { filters: CallFilters }) {
  const [choice, setChoice] = useState<ExportChoice>(DEFAULT_EXPORT_CHOICE);
  const id = useId();
  const format = EXPORT_FORMAT_CHOICES.find((option) => option.value === choice.format) ?? EXPORT_FORMAT_CHOICES[0];
  return (
    <details className="export-menu" data-testid="calls-export">
      <summary className="button button--secondary">Export</summary>
      <div className="export-menu-panel" role="group" aria-labelledby={`${id}-title`}>
        <p className="export-menu-title" id={`${id}-title`}>
          Export calls
        </p>
        <p className="hint" data-testid="export-scope">
          {exportScope(filters)}
        </p>
        <fieldset className="field">
          <legend>Format</legend>
          <div className="choices">
            {EXPORT_FORMAT_CHOICES.map((option) => (
              <label key={option.value} className="choice">
                <input
                  type="radio"
                  name="export_format"
                  value={option.value}
                  checked={choice.format === option.value}
                  onChange={() => setChoice((current) => ({ ...current, format: option.value }))}
                />
                {option.label}
              </label>
            ))}
          </div>
          <p className="hint">{format.hint}</p>
        </fieldset>
        <fieldset className="field">
          <legend>Include</legend>
          <div className="choices">
            <label className="choice">
              <input
                type="checkbox"
                name="export_transcript"
                checked={choice.transcript}
                onChange={(event) => setChoice((current) => ({ ...current, transcript: event.target.checked }))}
              />
              Transcript
            </label>
            <label className="choice">
              <input
                type="checkbox"
                name="export_analysis"
                checked={choice.analysis}
                onChange={(event) => setChoice((current) => ({ ...current, analysis: event.target.checked }))}
              />
              Analysis
            </label>
          </div>
        </fieldset>
        <a className="button button--primary" href={exportHref(filters, choice)} download data-testid="export-link">
          Download {format.label}
        </a>
      </div>
    </details>
  );
}

/** `in the last 30 days`, `from Nov 2 to Nov 30`, as the chart covers it. */
function rangeText(filters: CallFilters): string {
  if (filters.from && filters.to) return `from ${formatDay(filters.from)} to ${formatDay(filters.to)}`;
  if (filters.from) return `since ${formatDay(filters.from)}`;
  if (filters.to) return `in the 30 days to ${formatDay(filters.to)}`;
  return 'in the last 30 days';
}

function unique(values: string[]): string[] {
  return [...new Set(values.filter(Boolean))];
}

/**
 * Where the search matched, the matched words highlighted: the server's escaped text split at its `<mark>` markers
 * (match.ts) and shown as text and <mark> elements, never parsed as HTML.
 */
function MatchSnippet({ match }: { match: string }) {
  return (
    <span className="match" data-testid="call-match">
      {splitMatch(match).map((part, index) =>
        part.marked ? <mark key={index}>{part.text}</mark> : <Fragment key={index}>{part.text}</Fragment>,
      )}
    </span>
  );
}

/** The API's 400 names a query parameter; the form's input for it. */
const INPUT_OF: Partial<Record<string, keyof CallFilterDraft>> = {
  q: 'q',
  number_id: 'number_id',
  since: 'from',
  until: 'to',
  outcome: 'outcomes',
  sentiment: 'sentiment',
  caller: 'caller',
  min_duration: 'min_minutes',
  max_duration: 'max_minutes',
};

/**
 * The search and filters: a draft the list follows once it is applied (then kept in the address). When the address
 * changes (Back, a shared link), the form shows its filters again. At phone width the filters other than the search
 * wait behind a button, so the list is what a phone shows first.
 */
function CallFilterForm({
  filters,
  filterKey,
  numbers,
  outcomes,
  apiFields,
  onApply,
}: {
  filters: CallFilters;
  filterKey: string;
  numbers: Schemas['NumberView'][];
  outcomes: string[];
  apiFields: Record<string, string> | undefined;
  onApply: (filters: CallFilters) => void;
}) {
  const [draft, setDraft] = useDraft(filterKey, () => draftOf(filters), draftOf(filters));
  const [problems, setProblems] = useState<CallFilterProblems>({});
  const phone = usePhoneWidth();
  const [open, setOpen] = useState(false);
  const id = useId();
  const set =
    <K extends keyof CallFilterDraft>(name: K) =>
    (value: CallFilterDraft[K]) => {
      setDraft((current) => ({ ...current, [name]: value }));
      setProblems((current) => ({ ...current, [name]: undefined }));
    };
  // The server's word on a field the form has (a caller not in E.164, a search too long), next to that field.
  const serverProblem = (name: keyof CallFilterDraft): string | undefined =>
    Object.entries(apiFields ?? {}).find(([field]) => INPUT_OF[field] === name)?.[1];
  const problemOf = (name: keyof CallFilterDraft) =>
    (problems as Partial<Record<string, string>>)[name] ?? serverProblem(name);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = filtersOfDraft(draft);
    if (read.problems) {
      setProblems(read.problems);
      setOpen(true);
      return;
    }
    setProblems({});
    onApply(read.filters);
  };
  const clear = () => {
    setProblems({});
    setDraft(draftOf(NO_CALL_FILTERS));
    onApply(NO_CALL_FILTERS);
  };
  const moreCount = activeFilterCount(filters, ['q']);
  const showMore = !phone || open;

  return (
    <form className="card filters filters--calls" onSubmit={submit} role="search" aria-label="Search calls" noValidate>
      <div className="filters-search">
        <Field
          label="Search"
          name="q"
          type="search"
          value={draft.q}
          onChange={set('q')}
          placeholder="gluten free -pizza"
          maxLength={200}
          hint={
            <>
              Words in transcripts and summaries (any form: “order” finds “ordered”), “an exact phrase”, <code>or</code>
              , and <code>-word</code> to leave out.
            </>
          }
          error={problemOf('q')}
          hideOptional
        />
      </div>
      {showMore ? (
        <div className="filters-more" id={id}>
          <div className="field">
            <label htmlFor={`${id}-number`}>Number</label>
            <select
              id={`${id}-number`}
              name="number_id"
              value={draft.number_id}
              aria-invalid={problemOf('number_id') ? true : undefined}
              onChange={(event) => set('number_id')(event.target.value)}
            >
              <option value="">All numbers</option>
              {numbers.map((number) => (
                <option key={number.id} value={number.id}>
                  {number.phone_number}
                  {number.status === 'released' ? ' (released)' : ''}
                </option>
              ))}
            </select>
          </div>
          <Field
            label="From"
            name="from"
            type="date"
            value={draft.from}
            onChange={set('from')}
            error={problemOf('from')}
            hideOptional
          />
          <Field
            label="To"
            name="to"
            type="date"
            value={draft.to}
            onChange={set('to')}
            error={problemOf('to')}
            hideOptional
          />
          <Field
            label="Caller"
            name="caller"
            type="tel"
            value={draft.caller}
            onChange={set('caller')}
            placeholder="+14155550199"
            autoComplete="off"
            hint="The caller's phone, or “anonymous”."
            error={problemOf('caller')}
            hideOptional
          />
          <div className="field">
            <label htmlFor={`${id}-sentiment`}>Sentiment</label>
            <select
              id={`${id}-sentiment`}
              name="sentiment"
              value={draft.sentiment}
              onChange={(event) => set('sentiment')(event.target.value)}
            >
              <option value="">Any sentiment</option>
              {SENTIMENTS.map((sentiment) => (
                <option key={sentiment} value={sentiment}>
                  {humanize(sentiment)}
                </option>
              ))}
            </select>
          </div>
          <fieldset className="field filters-duration">
            <legend>Duration, in minutes</legend>
            <div className="filters-pair">
              <Field
                label="At least"
                name="min_minutes"
                inputMode="decimal"
                value={draft.min_minutes}
                onChange={set('min_minutes')}
                placeholder="0"
                error={problemOf('min_minutes')}
                hideOptional
              />
              <Field
                label="At most"
                name="max_minutes"
                inputMode="decimal"
                value={draft.max_minutes}
                onChange={set('max_minutes')}
                placeholder="any"
                error={problemOf('max_minutes')}
                hideOptional
              />
            </div>
          </fieldset>
          <fieldset className={`field filters-outcomes${problemOf('outcomes') ? ' field--invalid' : ''}`}>
            <legend>Outcome</legend>
            {outcomes.length === 0 ? (
              <p className="hint">The outcomes of your calls appear here once there are calls.</p>
            ) : (
              <div className="choices">
                {outcomes.map((outcome) => (
                  <label key={outcome} className="choice">
                    <input
                      type="checkbox"
                      name="outcome"
                      value={outcome}
                      checked={draft.outcomes.includes(outcome)}
                      onChange={(event) =>
                        set('outcomes')(
                          event.target.checked
                            ? [...draft.outcomes, outcome]
                            : draft.outcomes.filter((chosen) => chosen !== outcome),
                        )
                      }
                    />
                    {humanize(outcome)}
                  </label>
                ))}
              </div>
            )}
            {problemOf('outcomes') ? <p className="field-error">{problemOf('outcomes')}</p> : null}
          </fieldset>
        </div>
      ) : null}
      <div className="actions filters-actions">
        <Button type="submit" variant="primary">
          Apply
        </Button>
        {phone ? (
          <Button aria-expanded={open} aria-controls={open ? id : undefined} onClick={() => setOpen(!open)}>
            {open ? 'Hide filters' : `Filters${moreCount ? ` (${moreCount})` : ''}`}
          </Button>
        ) : null}
        {activeFilterCount(filters) > 0 ? (
          <Button variant="quiet" onClick={clear}>
            Clear filters
          </Button>
        ) : null}
      </div>
    </form>
  );
}
