// The lost-and-found desk's shared parts (issue 16, docs/adr/0080), for its four pages (pages/DeskItems.tsx,
// DeskItem.tsx, DeskClaims.tsx, DeskClaim.tsx): the frame with the location picker and tabs, the list filters kept in
// the address, the pager, and the custody timeline, photos and facts of an item or a claim. Every call goes to
// /console/api/lostfound/* (docs/console/api.md); the server decides, the page explains.
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { NavLink, useSearchParams } from 'react-router';
import { api, ApiError, type Schemas } from '../api';
import { formatTime, humanize } from '../format';
import { isWebUrl } from '../input';
import { Button, Empty, Field, LoadError, Loading, Notice, PageHeader, useLoad } from './ui';

/** The `<datalist>` of category suggestions the frame holds, for the pages' category fields. */
export const CATEGORY_LIST_ID = 'lostfound-categories';
/** The list filters, each a query parameter of the page's address and of the list's request. */
export const FILTERS = ['q', 'category', 'area', 'from', 'to', 'status'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** The account's lost-and-found locations and the one the page is about (`?location=`, else the first). */
function useDeskLocation(): {
  locations: ReturnType<typeof useLoad<Schemas['ConsoleDeskLocationList']>>;
  location: Schemas['DeskLocationView'] | undefined;
  locationParam: string;
} {
  const [params] = useSearchParams();
  const locations = useLoad(() => api.GET('/console/api/lostfound/locations'), []);
  const locationParam = params.get('location') ?? '';
  const all = locations.data?.data ?? [];
  const location = all.find((l) => String(l.id) === locationParam) ?? all[0];
  return { locations, location, locationParam };
}

/**
 * A claim or found item at the `?location=` its link names; a link without one (copied from a text, a note, another
 * tab) is looked up at each of the account's lost-and-found locations in turn, and the first that holds it answers.
 * An id no location holds ends as that location's 404 (`claim_not_found`, `found_item_not_found`).
 */
export async function atSomeLocation<T>(locationParam: string, load: (locationId: number) => Promise<T>): Promise<T> {
  // Number() reads the address as the API does: a location that is no number is refused by name (400).
  if (locationParam) return load(Number(locationParam));
  const list = await api.GET('/console/api/lostfound/locations');
  const locations = list.data;
  let missing: unknown;
  for (const location of locations) {
    try {
      return await load(location.id);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      missing = error;
    }
  }
  throw missing instanceof Error ? missing : new Error(noLocationSentence(list));
}

/**
 * Why the desk has no location, in plain words. In test mode the desk shows the test twin's locations (docs/adr/0087),
 * which are not the live account's: say so, with the twin's id, rather than that none runs lost-and-found.
 */
function noLocationSentence(list: Schemas['ConsoleDeskLocationList']): string {
  if (list.mode !== 'test') {
    return "None of this account's locations runs lost-and-found yet. Switchboard's operators turn it on per location.";
  }
  const live = list.live_locations ?? 0;
  const liveSentence =
    live === 0
      ? 'The live account has none either.'
      : `The live account's ${live === 1 ? 'location is' : `${live} locations are`} not shared with test data.`;
  return (
    `You are looking at test data: the test account ${list.account_id} has no lost-and-found location. ${liveSentence} ` +
    `Switch off Test data to use the live desk, or ask Switchboard's operators to add a test location to ${list.account_id}.`
  );
}

/** In test mode, whose desk this is: the test twin's, by its id (the id an operator needs to add a location to it). */
function TestAccountNote({ list }: { list: Schemas['ConsoleDeskLocationList'] }) {
  if (list.mode !== 'test') return null;
  return (
    <p className="desk-account muted" data-testid="desk-test-account">
      Test data: the locations, items and claims of the test account <code>{list.account_id}</code>, not the live
      account&apos;s.
    </p>
  );
}

/** The desk's frame: title, location picker, the items/claims tabs and the claimant page's address. */
export function DeskFrame({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: (location: Schemas['DeskLocationView'], categories: string[]) => ReactNode;
}) {
  const { locations, location } = useDeskLocation();
  const [params, setParams] = useSearchParams();
  if (locations.error) {
    return (
      <section>
        <PageHeader title={title} />
        <LoadError error={locations.error} retry={locations.reload} />
      </section>
    );
  }
  if (!locations.data) return <Loading what="your locations" />;
  if (!location) {
    return (
      <section>
        <PageHeader title={title} />
        <div data-testid="desk-no-location">
          <Empty>{noLocationSentence(locations.data)}</Empty>
        </div>
      </section>
    );
  }
  const pick = (id: string) => setParams({ location: id });
  const at = `?location=${location.id}`;
  return (
    <section>
      <PageHeader title={title} description={description}>
        {locations.data.data.length > 1 ? (
          <div className="field field--inline">
            <label htmlFor="desk-location">Location</label>
            <select id="desk-location" value={String(location.id)} onChange={(event) => pick(event.target.value)}>
              {locations.data.data.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p className="desk-location" data-testid="desk-location">
            {location.name}
          </p>
        )}
      </PageHeader>
      <TestAccountNote list={locations.data} />
      <nav className="tabs" aria-label="Lost and found">
        <NavLink to={`/lostfound${at}`} end>
          Found items
        </NavLink>
        <NavLink to={`/lostfound/claims${at}`}>Claims</NavLink>
        <a
          className="tabs-aside"
          href={`/console/claim/${encodeURIComponent(location.public_slug)}`}
          target="_blank"
          rel="noreferrer"
        >
          Public claim page<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </nav>
      <datalist id={CATEGORY_LIST_ID}>
        {locations.data.categories.map((category) => (
          <option key={category} value={category} />
        ))}
      </datalist>
      {params.get('location') === null || String(location.id) === params.get('location') ? null : (
        <Notice tone="info">That location does not run lost-and-found here; showing {location.name}.</Notice>
      )}
      {children(location, locations.data.categories)}
    </section>
  );
}

/** The stylesheet's phone breakpoint (styles.css, `@media (max-width: 800px)`). */
const PHONE_WIDTH = '(max-width: 800px)';

/** True at phone width, following the window as it is resized or turned. */
export function usePhoneWidth(): boolean {
  const [phone, setPhone] = useState(() => window.matchMedia(PHONE_WIDTH).matches);
  useEffect(() => {
    const media = window.matchMedia(PHONE_WIDTH);
    const follow = () => setPhone(media.matches);
    media.addEventListener('change', follow);
    follow();
    return () => media.removeEventListener('change', follow);
  }, []);
  return phone;
}

/**
 * At phone width a long form waits behind a button, so that the list is what the desk shows first on a phone;
 * wider, the form is shown as it is.
 */
export function BehindButtonOnPhone({ label, children }: { label: string; children: ReactNode }) {
  const phone = usePhoneWidth();
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!phone) return <>{children}</>;
  return (
    <>
      <Button className="phone-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {label}
      </Button>
      <div id={id} hidden={!open}>
        {open ? children : null}
      </div>
    </>
  );
}

/** The list filters, kept in the address so a search can be shared and survives a reload. */
export function useFilters(): {
  filters: Filters;
  page: number;
  setFilters: (next: Partial<Filters>, page?: number) => void;
} {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ''])) as Filters;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const setFilters = (next: Partial<Filters>, nextPage = 1) => {
    const merged = { ...filters, ...next };
    const search = new URLSearchParams();
    const location = params.get('location');
    if (location) search.set('location', location);
    for (const name of FILTERS) if (merged[name]) search.set(name, merged[name]);
    if (nextPage > 1) search.set('page', String(nextPage));
    setParams(search);
  };
  return { filters, page, setFilters };
}

/**
 * The address's `status` filter as a list's query: the form offers the list's statuses alone (`S`); another word typed
 * into the address goes as written, and the API refuses it by name (400), as any other filter.
 */
export function statusFilter<S extends string>(status: string): S | undefined {
  return (status || undefined) as S | undefined;
}

/** The search form of a list: a draft the list follows only once it is submitted. */
export function FilterForm({
  what,
  statuses,
  filters,
  onApply,
  dateLabel,
}: {
  what: string;
  statuses: readonly string[];
  filters: Filters;
  onApply: (next: Filters) => void;
  dateLabel: string;
}) {
  const [draft, setDraft] = useState<Filters>(filters);
  const set = (name: keyof Filters) => (value: string) => setDraft({ ...draft, [name]: value });
  const rangeError =
    draft.from && draft.to && draft.from > draft.to ? 'The start date is after the end date.' : undefined;
  const any = FILTERS.some((name) => filters[name]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!rangeError) onApply(draft);
  };
  const empty = { q: '', category: '', area: '', from: '', to: '', status: '' };
  return (
    <form className="card filters filters--desk" onSubmit={submit} aria-label={`Search ${what}`} role="search">
      <Field label="Search" name="q" value={draft.q} onChange={set('q')} placeholder="red umbrella" hideOptional />
      <Field
        label="Category"
        name="category"
        value={draft.category}
        onChange={set('category')}
        list={CATEGORY_LIST_ID}
        hideOptional
      />
      <Field label="Area" name="area" value={draft.area} onChange={set('area')} hideOptional />
      <Field
        label={`${dateLabel} from`}
        name="from"
        type="date"
        value={draft.from}
        onChange={set('from')}
        hideOptional
      />
      <Field
        label={`${dateLabel} to`}
        name="to"
        type="date"
        value={draft.to}
        onChange={set('to')}
        error={rangeError}
        hideOptional
      />
      <div className="field">
        <label htmlFor={`${what}-status`}>Status</label>
        <select
          id={`${what}-status`}
          name="status"
          value={draft.status}
          onChange={(event) => set('status')(event.target.value)}
        >
          <option value="">Any</option>
          {statuses.map((status) => (
            <option key={status} value={status}>
              {humanize(status)}
            </option>
          ))}
        </select>
      </div>
      <div className="actions">
        <Button type="submit" variant="primary">
          Search
        </Button>
        {any ? (
          <Button
            variant="quiet"
            onClick={() => {
              setDraft(empty);
              onApply(empty);
            }}
          >
            Clear
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** Page N of M of a numbered list and its count, with a "+" when found items were counted only up to the bound. */
export function Pager({
  what,
  page,
  onPage,
}: {
  what: string;
  page: Schemas['FoundItemPage'] | Schemas['ClaimPage'] | undefined;
  onPage: (page: number) => void;
}) {
  if (!page || page.total === 0) return null;
  // Only found items are counted up to a bound (docs/adr/0053); claims are counted exactly.
  const inexact = 'total_exact' in page && !page.total_exact;
  return (
    <nav className="pager" aria-label={`Pages of ${what}`}>
      <span className="muted pager-status">
        Page {page.page} of {Math.max(page.pages, 1)} · {page.total}
        {inexact ? '+' : ''} {page.total === 1 ? what.replace(/s$/, '') : what}
        {inexact ? ' (the most recent shown: narrow the search to see older ones)' : ''}
      </span>
      <Button onClick={() => onPage(page.page - 1)} disabled={page.page <= 1}>
        Previous
      </Button>
      <Button onClick={() => onPage(page.page + 1)} disabled={page.page >= page.pages}>
        Next
      </Button>
    </nav>
  );
}

export function Timeline({ entries, label }: { entries: Schemas['TimelineEntryView'][]; label: string }) {
  if (entries.length === 0) return <Empty>Nothing recorded yet.</Empty>;
  return (
    <ol className="timeline" aria-label={label}>
      {entries.map((entry, index) => (
        <li key={index}>
          <p className="timeline-what">
            <strong>{humanize(entry.action)}</strong> <span className="muted">by {entry.staff_name || 'someone'}</span>
          </p>
          <p className="timeline-when muted">{formatTime(entry.created_at)}</p>
          {entry.note ? <p className="timeline-note">{entry.note}</p> : null}
        </li>
      ))}
    </ol>
  );
}

/**
 * Photos as links: the console's CSP loads no image from other sites, and a staff browser should not fetch them unasked.
 * Only an https:// or http:// URL is a link; any other (stored before the API refused them) is shown as text alone.
 */
export function Photos({ photos }: { photos: string[] }) {
  if (photos.length === 0) return <p className="muted">No photo.</p>;
  return (
    <ul className="photo-links">
      {photos.map((url, index) => {
        const label = `Photo ${index + 1}${index === 0 ? ' (primary)' : ''}`;
        return (
          <li key={url + index}>
            {isWebUrl(url) ? (
              <a href={url} target="_blank" rel="noreferrer noopener">
                {label}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            ) : (
              <span>{label} (not a web address, not linked)</span>
            )}{' '}
            <span className="muted truncate">{url}</span>
          </li>
        );
      })}
    </ul>
  );
}
