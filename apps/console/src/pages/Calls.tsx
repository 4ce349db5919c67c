import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { CallList } from '@switchboard/contracts';
import { get, query } from '../api';
import { Button, Empty, LoadError, Loading, PageHeader, StatusBadge, useLoad } from '../components/ui';
import { formatDuration, formatTime, humanize } from '../format';
import { dayStart } from '../input';
import { allNumbers } from './Numbers';

export const CALLS_PER_PAGE = 20;

export function CallsPage() {
  const [params, setParams] = useSearchParams();
  const numberId = params.get('number_id') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const after = params.get('after') ?? '';
  // The cursors of the pages before this one, so "Previous" goes back the way it came.
  const [trail, setTrail] = useState<string[]>([]);
  const [draft, setDraft] = useState({ numberId, from, to });
  const numbers = useLoad(allNumbers, []);
  const calls = useLoad(
    () =>
      get<CallList>(
        `/calls${query({ number_id: numberId, since: dayStart(from), until: dayStart(to, true), limit: CALLS_PER_PAGE, starting_after: after })}`,
      ),
    [numberId, from, to, after],
  );

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setTrail([]);
    setParams(
      Object.fromEntries(
        Object.entries({ number_id: draft.numberId, from: draft.from, to: draft.to }).filter(([, value]) => value),
      ),
    );
  };
  const clear = () => {
    setDraft({ numberId: '', from: '', to: '' });
    setTrail([]);
    setParams({});
  };
  const goTo = (cursor: string) => {
    const next = new URLSearchParams(params);
    if (cursor) next.set('after', cursor);
    else next.delete('after');
    setParams(next);
  };
  const nextPage = () => {
    const data = calls.data?.data ?? [];
    if (data.length === 0) return;
    setTrail((previous) => [...previous, after]);
    goTo(data[data.length - 1].id);
  };
  const previousPage = () => {
    const previous = trail[trail.length - 1] ?? '';
    setTrail((all) => all.slice(0, -1));
    goTo(previous);
  };
  const rangeError = from && to && from > to ? 'The start date is after the end date.' : undefined;

  return (
    <section>
      <PageHeader title="Calls" description="Every call your numbers answered, newest first." />
      <form className="card filters" onSubmit={apply} aria-label="Filter calls">
        <div className="field">
          <label htmlFor="filter-number">Number</label>
          <select
            id="filter-number"
            name="number_id"
            value={draft.numberId}
            onChange={(event) => setDraft({ ...draft, numberId: event.target.value })}
          >
            <option value="">All numbers</option>
            {(numbers.data ?? []).map((number) => (
              <option key={number.id} value={number.id}>
                {number.phone_number}
                {number.status === 'released' ? ' (released)' : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-from">From</label>
          <input
            id="filter-from"
            name="from"
            type="date"
            value={draft.from}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="filter-to">To</label>
          <input
            id="filter-to"
            name="to"
            type="date"
            value={draft.to}
            aria-invalid={rangeError ? true : undefined}
            aria-describedby={rangeError ? 'filter-range-error' : undefined}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
          />
          {rangeError ? (
            <p className="field-error" id="filter-range-error">
              {rangeError}
            </p>
          ) : null}
        </div>
        <div className="actions">
          <Button type="submit" variant="primary">
            Apply
          </Button>
          {numberId || from || to ? (
            <Button variant="quiet" onClick={clear}>
              Clear filters
            </Button>
          ) : null}
        </div>
      </form>

      {calls.error ? <LoadError error={calls.error} retry={calls.reload} /> : null}
      {!calls.data && calls.loading ? <Loading what="calls" /> : null}
      {calls.data && calls.data.data.length === 0 ? (
        <Empty>
          {numberId || from || to
            ? 'No calls match these filters.'
            : 'No calls yet. They appear here as soon as one of your numbers answers.'}
        </Empty>
      ) : null}
      {calls.data && calls.data.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table" data-testid="calls-table" aria-busy={calls.loading || undefined}>
            <caption className="visually-hidden">Calls, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Caller</th>
                <th scope="col">Number</th>
                <th scope="col">Duration</th>
                <th scope="col">Outcome</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {calls.data.data.map((call) => (
                <tr key={call.id} data-call-id={call.id}>
                  <td data-label="Started">
                    <Link to={`/calls/${encodeURIComponent(call.id)}`}>{formatTime(call.started_at)}</Link>
                  </td>
                  <td data-label="Caller">{call.caller}</td>
                  <td data-label="Number">{call.phone_number}</td>
                  <td data-label="Duration">{formatDuration(call.duration_sec)}</td>
                  <td data-label="Outcome">{humanize(call.outcome)}</td>
                  <td data-label="Status">
                    <StatusBadge status={call.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <nav className="pager" aria-label="Pages of calls">
        <Button onClick={previousPage} disabled={!after}>
          Previous
        </Button>
        <Button onClick={nextPage} disabled={!calls.data?.has_more}>
          Next
        </Button>
      </nav>
    </section>
  );
}
