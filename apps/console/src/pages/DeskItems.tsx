import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, newIdempotencyKey, type Schemas } from '../api';
import {
  BehindButtonOnPhone,
  CATEGORY_LIST_ID,
  DeskFrame,
  FILTERS,
  FilterForm,
  Pager,
  statusFilter,
  useFilters,
} from '../components/desk';
import { Button, Field, Listing, Notice, StatusBadge, useFormSend, useLoad } from '../components/ui';
import { parsePhotoUrls } from '../input';
import { roleReason, useSignedIn } from '../session';

const ITEM_STATUSES = ['stored', 'returned', 'donated', 'disposed'] as const;

/** `/lostfound`: log an item, and search the location's found items. */
export function DeskItemsPage() {
  return (
    <DeskFrame title="Lost & found" description="Log what is handed in, find it again, and give it back to its owner.">
      {(location, categories) => <ItemsPanel key={location.id} location={location} categories={categories} />}
    </DeskFrame>
  );
}

function ItemsPanel({ location, categories }: { location: Schemas['DeskLocationView']; categories: string[] }) {
  const { can, role } = useSignedIn();
  const { filters, page, setFilters } = useFilters();
  const items = useLoad(
    () =>
      api.GET('/console/api/lostfound/found-items', {
        params: {
          query: {
            location_id: location.id,
            ...filters,
            status: statusFilter<(typeof ITEM_STATUSES)[number]>(filters.status),
            page,
          },
        },
      }),
    [location.id, ...FILTERS.map((name) => filters[name]), page],
  );
  const [logged, setLogged] = useState<Schemas['FoundItemView']>();
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
      <Listing
        load={items}
        rows={items.data?.data}
        what="found items"
        empty={
          FILTERS.some((name) => filters[name])
            ? 'No found item matches this search.'
            : 'No found items yet. Log the first one above.'
        }
        caption={`Found items${filters.q ? ', best match first' : ', newest first'}`}
        testId="items-table"
        rowKey={(item) => item.id}
        rowAttributes={(item) => ({ 'data-item-id': item.id })}
        columns={[
          {
            header: 'Item',
            cell: (item) => (
              <Link to={`/lostfound/items/${item.id}?location=${location.id}`}>
                #{item.id} {item.description}
              </Link>
            ),
          },
          { header: 'Category', cell: (item) => item.category },
          { header: 'Found', cell: (item) => item.found_date },
          { header: 'Area', cell: (item) => item.found_area || '—' },
          { header: 'Storage', cell: (item) => item.storage_ref || '—' },
          { header: 'Status', cell: (item) => <StatusBadge status={item.status} /> },
        ]}
      />
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
  location: Schemas['DeskLocationView'];
  categories: string[];
  onLogged: (item: Schemas['FoundItemView']) => void;
}) {
  const blank = Object.fromEntries(LOG_FIELDS.map((name) => [name, ''])) as Record<(typeof LOG_FIELDS)[number], string>;
  const [form, setForm] = useState(blank);
  const { busy, failure, send } = useFormSend([...LOG_FIELDS, 'photo_urls']);
  const set = (name: (typeof LOG_FIELDS)[number]) => (value: string) => setForm({ ...form, [name]: value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await send(async () => {
      // Empty fields are left out.
      const filled = (name: (typeof LOG_FIELDS)[number]) => form[name].trim() || undefined;
      // One field for every photo: the first is the main one (`image_url`), the rest go as `photo_urls`.
      const [main, ...more] = parsePhotoUrls(form.image_url);
      const item = await api.POST('/console/api/lostfound/found-items', {
        params: { header: { 'Idempotency-Key': newIdempotencyKey() } },
        body: {
          location_id: location.id,
          category: filled('category'),
          // Left out when empty too: the API's 400 then says `description is required`, shown at the field.
          description: filled('description') as string,
          color: filled('color'),
          found_area: filled('found_area'),
          storage_ref: filled('storage_ref'),
          found_by: filled('found_by'),
          found_date: filled('found_date'),
          image_url: main,
          photo_urls: more.length > 0 ? more : undefined,
        },
      });
      // Keep the category and area: items handed in together are often alike.
      setForm({ ...blank, category: form.category, found_area: form.found_area, found_date: form.found_date });
      onLogged(item);
    });
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
