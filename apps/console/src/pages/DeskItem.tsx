import { useId, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, newIdempotencyKey, type Schemas } from '../api';
import { Photos, Timeline, atSomeLocation } from '../components/desk';
import {
  ConfirmButton,
  Field,
  Loading,
  Notice,
  PageHeader,
  PageLoadError,
  StatusBadge,
  useLoad,
  Fact,
} from '../components/ui';
import { formatTime } from '../format';
import { roleReason, useSignedIn } from '../session';

/** Today in UTC, as the service counts days (found_date, hold_until). */
function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** `/lostfound/items/:id`: the item, its photos and custody, and disposal once the hold period is over. */
export function DeskItemPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const locationParam = params.get('location') ?? '';
  const item = useLoad(
    () =>
      atSomeLocation(locationParam, (locationId) =>
        api.GET('/console/api/lostfound/found-items/{id}', {
          params: { path: { id: Number(id) }, query: { location_id: locationId } },
        }),
      ),
    [id, locationParam],
  );
  const locationId = item.data ? String(item.data.location_id) : locationParam;
  const back = locationId ? `/lostfound?location=${encodeURIComponent(locationId)}` : '/lostfound';
  if (item.error) {
    return (
      <PageLoadError
        title="Found item"
        error={item.error}
        retry={item.reload}
        back={back}
        backLabel="Back to found items"
      />
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

function Disposal({ item, onDone }: { item: Schemas['FoundItemDetail']; onDone: () => void }) {
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
              await api.POST('/console/api/lostfound/found-items/{id}/disposal', {
                params: { path: { id: item.id }, header: { 'Idempotency-Key': newIdempotencyKey() } },
                body: { location_id: item.location_id, outcome, note: note.trim() || undefined },
              });
              onDone();
            }}
          />
        </>
      )}
    </div>
  );
}
