import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { Button, LoadError, Loading, Notice, useDraft, useFormSend, useLoad } from '../components/ui';

/**
 * A number's lost-and-found line (docs/adr/0079): calls to it that the agent ends as a lost-item report become claims
 * at the chosen location, and the caller is texted when a match is logged. Owners and developers choose; the rest
 * read.
 */
export function NumberLostfoundLine({ numberId, editable }: { numberId: string; editable: boolean }) {
  const line = useLoad(
    () => api.GET('/console/api/numbers/{id}/lostfound-line', { params: { path: { id: numberId } } }),
    [numberId],
  );
  const locations = useLoad(() => api.GET('/console/api/lostfound/locations'), []);
  const [choice, setChoice] = useDraft(
    line.data,
    (current) => (current.location_id === null ? '' : String(current.location_id)),
    '',
  );
  const { busy, failure, send } = useFormSend(['location_id']);
  const [saved, setSaved] = useState<string>();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(undefined);
    await send(async () => {
      const params = { path: { id: numberId } };
      if (choice === '') await api.DELETE('/console/api/numbers/{id}/lostfound-line', { params });
      else await api.PUT('/console/api/numbers/{id}/lostfound-line', { params, body: { location_id: Number(choice) } });
      const name = locations.data?.data.find((location) => String(location.id) === choice)?.name;
      setSaved(
        name
          ? `Lost-item reports on this number now become claims at ${name}.`
          : 'This number no longer takes lost-item reports.',
      );
      line.reload();
    });
  };

  const error = line.error ?? locations.error;
  if (error)
    return (
      <div className="card">
        <h2>Lost-and-found line</h2>
        <LoadError
          error={error}
          retry={() => {
            line.reload();
            locations.reload();
          }}
        />
      </div>
    );
  if (!line.data || !locations.data) return <Loading what="the lost-and-found line" />;
  const all = locations.data.data;

  return (
    <form className="card" onSubmit={(event) => void save(event)} noValidate aria-labelledby="lostfound-line-title">
      <h2 id="lostfound-line-title">Lost-and-found line</h2>
      <p className="hint">
        When a caller reports something they lost, the agent takes the details; the report becomes a claim at this
        location, and the caller gets a text when a matching item is logged.
      </p>
      {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
      {saved ? <Notice tone="success">{saved}</Notice> : null}
      {all.length === 0 ? (
        <p>This account has no lost-and-found locations yet.</p>
      ) : (
        <div className={`field${failure?.fields.location_id ? ' field--invalid' : ''}`}>
          <label htmlFor="lostfound-line-location">Location</label>
          <select
            id="lostfound-line-location"
            name="location_id"
            value={choice}
            disabled={!editable}
            onChange={(event) => {
              setChoice(event.target.value);
              setSaved(undefined);
            }}
          >
            <option value="">None: no lost-item reports</option>
            {all.map((location) => (
              <option key={location.id} value={String(location.id)}>
                {location.name}
              </option>
            ))}
          </select>
          {failure?.fields.location_id ? <p className="field-error">{failure.fields.location_id}</p> : null}
        </div>
      )}
      {editable && all.length > 0 ? (
        <div className="actions">
          <Button type="submit" variant="primary" busy={busy}>
            Save lost-and-found line
          </Button>
        </div>
      ) : null}
    </form>
  );
}
