// The lost-and-found desk (issue 16, docs/adr/0080): found items and claims of one of the account's locations,
// logging an item, an item's custody, a claim beside its candidate items, reuniting with proof, and disposal.
// Every call goes to /console/api/lostfound/* (docs/console/api.md); the server decides, the page explains.
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, NavLink, useParams, useSearchParams } from 'react-router';
import type {
  ClaimDetail,
  ClaimPage,
  ClaimTextView,
  DeskLocationList,
  DeskLocationView,
  FoundItemDetail,
  FoundItemPage,
  FoundItemView,
  Reunited,
  TimelineEntryView,
} from '@switchboard/contracts';
import { ApiError, get, newIdempotencyKey, post, query } from '../api';
import {
  Button,
  ConfirmButton,
  Empty,
  Field,
  LoadError,
  Loading,
  Notice,
  PageHeader,
  StatusBadge,
  failureOf,
  messageOf,
  useLoad,
  type FormFailure,
} from '../components/ui';
import { formatTime, humanize } from '../format';
import { isWebUrl, parsePhotoUrls } from '../input';
import { roleReason, useSignedIn } from '../session';

const CATEGORY_LIST_ID = 'lostfound-categories';
const ITEM_STATUSES = ['stored', 'returned', 'donated', 'disposed'] as const;
const CLAIM_STATUSES = ['open', 'reunited'] as const;
const FILTERS = ['q', 'category', 'area', 'from', 'to', 'status'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** Today in UTC, as the service counts days (found_date, hold_until). */
function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The account's lost-and-found locations and the one the page is about (`?location=`, else the first). */
function useDeskLocation(): {
  locations: ReturnType<typeof useLoad<DeskLocationList>>;
  location: DeskLocationView | undefined;
  locationParam: string;
} {
  const [params] = useSearchParams();
  const locations = useLoad(() => get<DeskLocationList>('/lostfound/locations'), []);
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
async function atSomeLocation<T>(locationParam: string, path: (locationId: string) => string): Promise<T> {
  if (locationParam) return get<T>(path(locationParam));
  const { data: locations } = await get<DeskLocationList>('/lostfound/locations');
  let missing: unknown;
  for (const location of locations) {
    try {
      return await get<T>(path(String(location.id)));
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      missing = error;
    }
  }
  throw missing instanceof Error
    ? missing
    : new Error(
        "None of this account's locations runs lost-and-found yet. Switchboard's operators turn it on per location.",
      );
}

/** The desk's frame: title, location picker, the items/claims tabs and the claimant page's address. */
function DeskFrame({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: (location: DeskLocationView, categories: string[]) => ReactNode;
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
        <Empty>
          None of this account&apos;s locations runs lost-and-found yet. Switchboard&apos;s operators turn it on per
          location.
        </Empty>
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
function usePhoneWidth(): boolean {
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
function BehindButtonOnPhone({ label, children }: { label: string; children: ReactNode }) {
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
function useFilters(): { filters: Filters; page: number; setFilters: (next: Partial<Filters>, page?: number) => void } {
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

function FilterForm({
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

function Pager({
  what,
  page,
  onPage,
}: {
  what: string;
  page: FoundItemPage | ClaimPage | undefined;
  onPage: (page: number) => void;
}) {
  if (!page || page.total === 0) return null;
  // Only found items are counted up to a bound (docs/adr/0089); claims are counted exactly.
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

/** `/lostfound`: log an item, and search the location's found items. */
export function DeskItemsPage() {
  return (
    <DeskFrame title="Lost & found" description="Log what is handed in, find it again, and give it back to its owner.">
      {(location, categories) => <ItemsPanel key={location.id} location={location} categories={categories} />}
    </DeskFrame>
  );
}

function ItemsPanel({ location, categories }: { location: DeskLocationView; categories: string[] }) {
  const { can, role } = useSignedIn();
  const { filters, page, setFilters } = useFilters();
  const items = useLoad(
    () => get<FoundItemPage>(`/lostfound/found-items${query({ location_id: location.id, ...filters, page })}`),
    [location.id, ...FILTERS.map((name) => filters[name]), page],
  );
  const [logged, setLogged] = useState<FoundItemView>();
  return (
    <>
      {can('use_desk') ? (
        <BehindButtonOnPhone label="Log a found item">
          <LogItemForm
            location={location}
            categories={categories}
            onLogged={(item) => {
              setLogged(item);
              items.reload();
            }}
          />
        </BehindButtonOnPhone>
      ) : (
        <Notice tone="info">{roleReason(role, 'use_desk')}</Notice>
      )}
      {logged ? (
        <Notice tone="success">
          Item #{logged.id} ({logged.category}) is logged.{' '}
          <Link to={`/lostfound/items/${logged.id}?location=${location.id}`}>Open it</Link>.
        </Notice>
      ) : null}
      <h2>Found items</h2>
      <BehindButtonOnPhone label="Search items">
        <FilterForm
          key={JSON.stringify(filters)}
          what="items"
          statuses={ITEM_STATUSES}
          filters={filters}
          onApply={(next) => setFilters(next)}
          dateLabel="Found"
        />
      </BehindButtonOnPhone>
      {items.error ? <LoadError error={items.error} retry={items.reload} /> : null}
      {!items.data && items.loading ? <Loading what="found items" /> : null}
      {items.data && items.data.data.length === 0 ? (
        <Empty>
          {FILTERS.some((name) => filters[name])
            ? 'No found item matches this search.'
            : 'No found items yet. Log the first one above.'}
        </Empty>
      ) : null}
      {items.data && items.data.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table" data-testid="items-table" aria-busy={items.loading || undefined}>
            <caption className="visually-hidden">
              Found items{filters.q ? ', best match first' : ', newest first'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Category</th>
                <th scope="col">Found</th>
                <th scope="col">Area</th>
                <th scope="col">Storage</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {items.data.data.map((item) => (
                <tr key={item.id} data-item-id={item.id}>
                  <td data-label="Item">
                    <Link to={`/lostfound/items/${item.id}?location=${location.id}`}>
                      #{item.id} {item.description}
                    </Link>
                  </td>
                  <td data-label="Category">{item.category}</td>
                  <td data-label="Found">{item.found_date}</td>
                  <td data-label="Area">{item.found_area || '—'}</td>
                  <td data-label="Storage">{item.storage_ref || '—'}</td>
                  <td data-label="Status">
                    <StatusBadge status={item.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager what="items" page={items.data} onPage={(next) => setFilters({}, next)} />
    </>
  );
}

const LOG_FIELDS = [
  'category',
  'description',
  'color',
  'found_area',
  'storage_ref',
  'found_by',
  'found_date',
  'image_url',
] as const;

function LogItemForm({
  location,
  onLogged,
}: {
  location: DeskLocationView;
  categories: string[];
  onLogged: (item: FoundItemView) => void;
}) {
  const blank = Object.fromEntries(LOG_FIELDS.map((name) => [name, ''])) as Record<(typeof LOG_FIELDS)[number], string>;
  const [form, setForm] = useState(blank);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>();
  const set = (name: (typeof LOG_FIELDS)[number]) => (value: string) => setForm({ ...form, [name]: value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      const body: Record<string, unknown> = { location_id: location.id };
      for (const name of LOG_FIELDS) if (name !== 'image_url' && form[name].trim()) body[name] = form[name].trim();
      // One field for every photo: the first is the main one (`image_url`), the rest go as `photo_urls`.
      const [main, ...more] = parsePhotoUrls(form.image_url);
      if (main) body.image_url = main;
      if (more.length > 0) body.photo_urls = more;
      const item = await post<FoundItemView>('/lostfound/found-items', body, {
        'Idempotency-Key': newIdempotencyKey(),
      });
      // Keep the category and area: items handed in together are often alike.
      setForm({ ...blank, category: form.category, found_area: form.found_area, found_date: form.found_date });
      onLogged(item);
    } catch (error) {
      setFailure(failureOf(error, [...LOG_FIELDS, 'photo_urls']));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card" onSubmit={(event) => void submit(event)} aria-labelledby="log-item-title" noValidate>
      <h2 id="log-item-title">Log a found item</h2>
      {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
      <div className="grid-2">
        <Field
          label="What is it?"
          name="description"
          value={form.description}
          onChange={set('description')}
          required
          error={failure?.fields.description}
          placeholder="Red umbrella, wooden handle"
          maxLength={2000}
        />
        <Field
          label="Category"
          name="category"
          value={form.category}
          onChange={set('category')}
          required={false}
          list={CATEGORY_LIST_ID}
          error={failure?.fields.category}
          hint="Pick a suggestion or type a word; empty: guessed from the description."
        />
      </div>
      <div className="grid-3">
        <Field
          label="Colour"
          name="color"
          value={form.color}
          onChange={set('color')}
          required={false}
          error={failure?.fields.color}
        />
        <Field
          label="Where found"
          name="found_area"
          value={form.found_area}
          onChange={set('found_area')}
          required={false}
          error={failure?.fields.found_area}
        />
        <Field
          label="Storage"
          name="storage_ref"
          value={form.storage_ref}
          onChange={set('storage_ref')}
          required={false}
          error={failure?.fields.storage_ref}
          placeholder="Shelf A3"
        />
        <Field
          label="Found by"
          name="found_by"
          value={form.found_by}
          onChange={set('found_by')}
          required={false}
          error={failure?.fields.found_by}
        />
        <Field
          label="Found on"
          name="found_date"
          type="date"
          value={form.found_date}
          onChange={set('found_date')}
          required={false}
          error={failure?.fields.found_date}
          hint="Empty: today."
        />
        <Field
          label="Photo URLs"
          name="image_url"
          multiline
          value={form.image_url}
          onChange={set('image_url')}
          required={false}
          error={failure?.fields.image_url ?? failure?.fields.photo_urls}
          hint="One per line, up to 11; the first is the main photo."
        />
      </div>
      <div className="actions">
        <Button type="submit" variant="primary" busy={busy}>
          {busy ? 'Logging…' : 'Log item'}
        </Button>
      </div>
    </form>
  );
}

function Timeline({ entries, label }: { entries: TimelineEntryView[]; label: string }) {
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

/** The texts sent to a claimant about their claim, oldest first, as plain text. */
function SentTexts({ texts }: { texts: ClaimTextView[] }) {
  if (texts.length === 0) return <Empty>No text sent yet.</Empty>;
  return (
    <ol className="timeline" aria-label="Texts sent to the claimant, oldest first" data-testid="claim-texts">
      {texts.map((text, index) => (
        <li key={index}>
          <p className="timeline-when muted">{formatTime(text.sent_at)}</p>
          <p className="timeline-note">{text.body}</p>
        </li>
      ))}
    </ol>
  );
}

/**
 * Photos as links: the console's CSP loads no image from other sites, and a staff browser should not fetch them unasked.
 * Only an https:// or http:// URL is a link; any other (stored before the API refused them) is shown as text alone.
 */
function Photos({ photos }: { photos: string[] }) {
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

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children || '—'}</dd>
    </div>
  );
}

/** `/lostfound/items/:id`: the item, its photos and custody, and disposal once the hold period is over. */
export function DeskItemPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const locationParam = params.get('location') ?? '';
  const item = useLoad(
    () =>
      atSomeLocation<FoundItemDetail>(
        locationParam,
        (locationId) => `/lostfound/found-items/${encodeURIComponent(id)}${query({ location_id: locationId })}`,
      ),
    [id, locationParam],
  );
  const locationId = item.data ? String(item.data.location_id) : locationParam;
  const back = locationId ? `/lostfound?location=${encodeURIComponent(locationId)}` : '/lostfound';
  if (item.error) {
    return (
      <section>
        <PageHeader title="Found item" />
        <LoadError error={item.error} retry={item.reload} />
        <p>
          <Link to={back}>Back to found items</Link>
        </p>
      </section>
    );
  }
  if (!item.data) return <Loading what="the item" />;
  const i = item.data;
  return (
    <section>
      <p className="breadcrumb">
        <Link to={back}>Found items</Link> <span aria-hidden="true">/</span>
      </p>
      <PageHeader title={`#${i.id} ${i.description}`} description={<>Logged {formatTime(i.created_at)}</>}>
        <StatusBadge status={i.status} />
      </PageHeader>
      <dl className="facts facts--row">
        <Fact label="Category">{i.category}</Fact>
        <Fact label="Colour">{i.color}</Fact>
        <Fact label="Found on">{i.found_date}</Fact>
        <Fact label="Where found">{i.found_area}</Fact>
        <Fact label="Storage">{i.storage_ref}</Fact>
        <Fact label="Found by">{i.found_by}</Fact>
        {i.hold_until ? <Fact label="Held until">{i.hold_until}</Fact> : null}
      </dl>
      <div className="grid-2 grid-2--gap">
        <div className="card">
          <h2>Chain of custody</h2>
          <Timeline entries={i.timeline} label="Chain of custody, oldest first" />
        </div>
        <div className="card">
          <h2>Photos</h2>
          <Photos photos={i.photos} />
        </div>
      </div>
      {i.status === 'stored' ? <Disposal item={i} onDone={item.reload} /> : null}
    </section>
  );
}

function Disposal({ item, onDone }: { item: FoundItemDetail; onDone: () => void }) {
  const { can, role } = useSignedIn();
  const [outcome, setOutcome] = useState<'donated' | 'disposed'>('donated');
  const [note, setNote] = useState('');
  const holdOver = item.hold_until !== undefined && item.hold_until <= todayUtc();
  const outcomeId = useId();
  return (
    <div className="card">
      <h2>Donate or dispose of</h2>
      {!holdOver ? (
        <p>
          This item is held for its owner until {item.hold_until ?? 'the end of its hold period'}. From that day it can
          be donated or disposed of.
        </p>
      ) : !can('use_desk') ? (
        <Notice tone="info">{roleReason(role, 'use_desk')}</Notice>
      ) : (
        <>
          <p>
            Unclaimed since {item.found_date}: the hold period ended on {item.hold_until}.
          </p>
          <div className="grid-2">
            <div className="field">
              <label htmlFor={outcomeId}>What happens to it</label>
              <select
                id={outcomeId}
                value={outcome}
                onChange={(event) => setOutcome(event.target.value as 'donated' | 'disposed')}
              >
                <option value="donated">Donated</option>
                <option value="disposed">Disposed of</option>
              </select>
            </div>
            <Field
              label="Note"
              name="note"
              value={note}
              onChange={setNote}
              required={false}
              placeholder="Given to the Red Cross shop, receipt 1234"
            />
          </div>
          <ConfirmButton
            label={outcome === 'donated' ? 'Mark donated' : 'Mark disposed of'}
            title={`Mark item #${item.id} ${outcome === 'donated' ? 'donated' : 'disposed of'}?`}
            body={
              <p>
                It leaves the desk for good: it can no longer be given back to a claimant. The move is added to its
                chain of custody.
              </p>
            }
            confirmLabel={outcome === 'donated' ? 'Mark donated' : 'Mark disposed of'}
            variant="danger"
            onConfirm={async () => {
              await post(
                `/lostfound/found-items/${item.id}/disposal`,
                { location_id: item.location_id, outcome, note: note.trim() || undefined },
                { 'Idempotency-Key': newIdempotencyKey() },
              );
              onDone();
            }}
          />
        </>
      )}
    </div>
  );
}

/** `/lostfound/claims`: the location's claims. */
export function DeskClaimsPage() {
  return (
    <DeskFrame title="Lost & found">{(location) => <ClaimsPanel key={location.id} location={location} />}</DeskFrame>
  );
}

function ClaimsPanel({ location }: { location: DeskLocationView }) {
  const { filters, page, setFilters } = useFilters();
  const claims = useLoad(
    () => get<ClaimPage>(`/lostfound/claims${query({ location_id: location.id, ...filters, page })}`),
    [location.id, ...FILTERS.map((name) => filters[name]), page],
  );
  return (
    <>
      <h2>Claims</h2>
      <p className="muted">
        Filed on the public page, by phone, or through the API. A claim with a match has a stored item that fits it.
      </p>
      <BehindButtonOnPhone label="Search claims">
        <FilterForm
          key={JSON.stringify(filters)}
          what="claims"
          statuses={CLAIM_STATUSES}
          filters={filters}
          onApply={(next) => setFilters(next)}
          dateLabel="Lost"
        />
      </BehindButtonOnPhone>
      {claims.error ? <LoadError error={claims.error} retry={claims.reload} /> : null}
      {!claims.data && claims.loading ? <Loading what="claims" /> : null}
      {claims.data && claims.data.data.length === 0 ? (
        <Empty>{FILTERS.some((name) => filters[name]) ? 'No claim matches this search.' : 'No claims yet.'}</Empty>
      ) : null}
      {claims.data && claims.data.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table" data-testid="claims-table" aria-busy={claims.loading || undefined}>
            <caption className="visually-hidden">Claims</caption>
            <thead>
              <tr>
                <th scope="col">Claim</th>
                <th scope="col">Claimant</th>
                <th scope="col">Category</th>
                <th scope="col">Lost</th>
                <th scope="col">Match</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {claims.data.data.map((claim) => (
                <tr key={claim.id} data-claim-id={claim.id}>
                  <td data-label="Claim">
                    <Link to={`/lostfound/claims/${claim.id}?location=${location.id}`}>
                      #{claim.id} {claim.description || claim.category}
                    </Link>
                  </td>
                  <td data-label="Claimant">{claim.claimant_name}</td>
                  <td data-label="Category">
                    {claim.category}
                    {claim.verify_required ? <span className="badge badge--warn badge--inline">high value</span> : null}
                  </td>
                  <td data-label="Lost">
                    {claim.lost_date ?? '—'}
                    {claim.lost_area ? `, ${claim.lost_area}` : ''}
                  </td>
                  <td data-label="Match">
                    {claim.has_match ? (
                      <span className="badge badge--good">match</span>
                    ) : (
                      <span className="muted">none yet</span>
                    )}
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={claim.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager what="claims" page={claims.data} onPage={(next) => setFilters({}, next)} />
    </>
  );
}

/**
 * An item the claim may be about: a low-value claim's match (no storage place), or, for a high-value claim, a stored
 * item of its category.
 */
type Candidate = Pick<FoundItemView, 'id' | 'description' | 'color' | 'found_area' | 'found_date'> &
  Partial<Pick<FoundItemView, 'storage_ref'>>;

/** `/lostfound/claims/:id`: the claim beside its candidate items, and reuniting one with it. */
export function DeskClaimPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const locationParam = params.get('location') ?? '';
  const claim = useLoad(
    () =>
      atSomeLocation<ClaimDetail>(
        locationParam,
        (locationId) => `/lostfound/claims/${encodeURIComponent(id)}${query({ location_id: locationId })}`,
      ),
    [id, locationParam],
  );
  const locationId = claim.data ? String(claim.data.location_id) : locationParam;
  // High-value claims list no matches (the API keeps them to staff who verify): the stored items of the category are the candidates.
  const sameCategory = useLoad(
    async () =>
      claim.data?.verify_required
        ? get<FoundItemPage>(
            `/lostfound/found-items${query({ location_id: locationId, category: claim.data.category, status: 'stored' })}`,
          )
        : undefined,
    [claim.data?.id, claim.data?.verify_required, claim.data?.category, locationId],
  );
  // Kept here, not in the form: once an item is given back the claim's candidates change and the form may go.
  const [reunited, setReunited] = useState<Reunited>();
  const back = locationId ? `/lostfound/claims?location=${encodeURIComponent(locationId)}` : '/lostfound/claims';
  if (claim.error) {
    return (
      <section>
        <PageHeader title="Claim" />
        <LoadError error={claim.error} retry={claim.reload} />
        <p>
          <Link to={back}>Back to claims</Link>
        </p>
      </section>
    );
  }
  if (!claim.data) return <Loading what="the claim" />;
  const c = claim.data;
  // A closed claim lists no candidates: its item was given back, and the stored items beside it are not its matches.
  const open = c.status === 'open';
  const candidates: Candidate[] = c.verify_required
    ? (sameCategory.data?.data ?? []).map((item) => ({
        id: item.id,
        description: item.description,
        color: item.color,
        found_area: item.found_area,
        found_date: item.found_date,
        storage_ref: item.storage_ref,
      }))
    : (c.matches ?? []).map((match) => ({
        id: match.found_item_id,
        description: match.description,
        color: match.color,
        found_area: match.found_area,
        found_date: match.found_date,
      }));
  return (
    <section>
      <p className="breadcrumb">
        <Link to={back}>Claims</Link> <span aria-hidden="true">/</span>
      </p>
      <PageHeader
        title={`Claim #${c.id}: ${c.description || c.category}`}
        description={
          <>
            Filed {formatTime(c.created_at)} ({c.source === 'web' ? 'public page' : c.source})
          </>
        }
      >
        <StatusBadge status={c.status} />
      </PageHeader>
      {reunited ? (
        <Notice tone="success">
          Item #{reunited.found_item_id} was given back to {c.claimant_name}
          {reunited.verified ? ', with verified proof' : ''}.
        </Notice>
      ) : null}
      <div className="grid-2 grid-2--gap side-by-side">
        <div className="card" data-testid="claim-facts">
          <h2>The claim</h2>
          <dl className="facts">
            <Fact label="Claimant">{c.claimant_name}</Fact>
            <Fact label="Phone">{c.claimant_phone}</Fact>
            <Fact label="Email">{c.claimant_email}</Fact>
            <Fact label="Category">
              {c.category}
              {c.verify_required ? <span className="badge badge--warn badge--inline">high value</span> : null}
            </Fact>
            <Fact label="Colour">{c.color}</Fact>
            <Fact label="Lost on">{c.lost_date ?? ''}</Fact>
            <Fact label="Where lost">{c.lost_area}</Fact>
            <Fact label="Proof offered">{c.proof_note}</Fact>
          </dl>
          <h3>Timeline</h3>
          <Timeline entries={c.timeline} label="The claim's timeline, oldest first" />
          <h3>Texts sent to the claimant</h3>
          <SentTexts texts={c.texts} />
          {c.photos.length > 0 ? (
            <>
              <h3>Photos</h3>
              <Photos photos={c.photos} />
            </>
          ) : null}
        </div>
        <div className="card" data-testid="claim-candidates">
          <h2>{!open ? 'Given back' : c.verify_required ? 'Stored items of this category' : 'Candidate matches'}</h2>
          {open && c.verify_required && sameCategory.data ? (
            <Notice tone="warning" title="High-value item">
              {candidates.length === 0
                ? `No ${c.category} item is stored yet. `
                : `The desk does not say which item fits a high-value claim, so every stored ${c.category} item is listed below; ${
                    c.has_match ? "one of them fits this claim's description. " : 'none fits its description yet. '
                  }`}
              Release an item only after checking the claimant&apos;s proof of ownership in person (ID, what is inside,
              a receipt).
            </Notice>
          ) : null}
          {!open ? <Notice tone="info">This claim is closed: its item was given back.</Notice> : null}
          {open && c.verify_required && sameCategory.error ? (
            <LoadError error={sameCategory.error} retry={sameCategory.reload} />
          ) : null}
          {open && candidates.length === 0 && (!c.verify_required || sameCategory.data) ? (
            <Empty>No candidate item yet. When a matching item is logged, the claimant is texted.</Empty>
          ) : null}
          {open && candidates.length > 0 ? (
            <Reunite
              claim={c}
              candidates={candidates}
              onDone={(answer) => {
                setReunited(answer);
                claim.reload();
              }}
            />
          ) : null}
        </div>
      </div>
    </section>
  );
}

function Reunite({
  claim,
  candidates,
  onDone,
}: {
  claim: ClaimDetail;
  candidates: Candidate[];
  onDone: (answer: Reunited) => void;
}) {
  const { can, role } = useSignedIn();
  const [chosen, setChosen] = useState<number | undefined>(candidates.length === 1 ? candidates[0].id : undefined);
  const [verified, setVerified] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ field?: 'found_item_id' | 'verified'; message: string }>();
  const open = claim.status === 'open' && can('use_desk');
  const verifyId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    if (chosen === undefined) {
      setFailure({ field: 'found_item_id', message: 'Choose the item that is being given back.' });
      return;
    }
    setBusy(true);
    try {
      const answer = await post<Reunited>(
        `/lostfound/claims/${claim.id}/reunite`,
        { location_id: claim.location_id, found_item_id: chosen, verified },
        { 'Idempotency-Key': newIdempotencyKey() },
      );
      onDone(answer);
    } catch (error) {
      const field =
        error instanceof ApiError && error.code === 'verification_required'
          ? 'verified'
          : error instanceof ApiError && error.fields?.found_item_id
            ? 'found_item_id'
            : undefined;
      setFailure({ field, message: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Reunite an item with this claim" noValidate>
      {failure && !failure.field ? <Notice tone="error">{failure.message}</Notice> : null}
      <fieldset
        className="candidates"
        aria-describedby={failure?.field === 'found_item_id' ? 'candidate-error' : undefined}
      >
        <legend className="visually-hidden">Candidate items</legend>
        {candidates.map((candidate) => (
          <label
            key={candidate.id}
            className={`candidate${chosen === candidate.id ? ' candidate--chosen' : ''}`}
            data-candidate-id={candidate.id}
          >
            {open ? (
              <input
                type="radio"
                name="found_item_id"
                value={candidate.id}
                checked={chosen === candidate.id}
                onChange={() => setChosen(candidate.id)}
              />
            ) : null}
            <span className="candidate-body">
              <span className="candidate-title">
                #{candidate.id} {candidate.description}
              </span>
              <span className="muted">
                {[
                  candidate.color,
                  candidate.found_area,
                  `found ${candidate.found_date}`,
                  candidate.storage_ref ? `storage ${candidate.storage_ref}` : '',
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
              <Link to={`/lostfound/items/${candidate.id}?location=${claim.location_id}`}>
                Item #{candidate.id}&apos;s page
              </Link>
            </span>
          </label>
        ))}
      </fieldset>
      {failure?.field === 'found_item_id' ? (
        <p className="field-error" id="candidate-error">
          {failure.message}
        </p>
      ) : null}
      {open ? (
        <>
          <div className={`checkbox${failure?.field === 'verified' ? ' field--invalid' : ''}`}>
            <input
              id={verifyId}
              type="checkbox"
              checked={verified}
              onChange={(event) => setVerified(event.target.checked)}
              aria-describedby={failure?.field === 'verified' ? `${verifyId}-error` : `${verifyId}-hint`}
              aria-invalid={failure?.field === 'verified' || undefined}
            />
            <label htmlFor={verifyId}>I have verified the claimant&apos;s proof of ownership</label>
          </div>
          {failure?.field === 'verified' ? (
            <p className="field-error" id={`${verifyId}-error`} role="alert">
              {failure.message}
            </p>
          ) : (
            <p className="hint" id={`${verifyId}-hint`}>
              {claim.verify_required
                ? 'Required for this high-value item.'
                : 'Optional for this item; recorded with the release.'}
            </p>
          )}
          <div className="actions">
            <Button type="submit" variant="primary" busy={busy}>
              {busy ? 'Reuniting…' : 'Reunite'}
            </Button>
          </div>
        </>
      ) : claim.status === 'open' ? (
        <Notice tone="info">{roleReason(role, 'use_desk')}</Notice>
      ) : null}
    </form>
  );
}
