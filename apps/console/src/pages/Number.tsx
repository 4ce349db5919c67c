import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { NumberView, WebhookDeliveryList } from '@switchboard/contracts';
import { del, get, patch } from '../api';
import {
  Button,
  ConfirmButton,
  Empty,
  Field,
  Ident,
  LoadError,
  Loading,
  Notice,
  PageHeader,
  StatusBadge,
  failureOf,
  useDraft,
  useLoad,
  type FormFailure,
} from '../components/ui';
import { formatTime } from '../format';
import { roleReason, useSignedIn } from '../session';
import { NumberAgent } from './NumberAgent';
import { NumberLostfoundLine } from './NumberLostfoundLine';

export function NumberPage() {
  const { id = '' } = useParams();
  const { can, role } = useSignedIn();
  const navigate = useNavigate();
  const mayManage = can('manage_numbers');
  const number = useLoad(() => get<NumberView>(`/numbers/${encodeURIComponent(id)}`), [id]);
  const deliveries = useLoad(
    () => get<WebhookDeliveryList>(`/numbers/${encodeURIComponent(id)}/webhook-deliveries`),
    [id],
  );
  const [webhookUrl, setWebhookUrl] = useDraft(number.data, (current) => current.webhook_url ?? '', '');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>();
  const [saved, setSaved] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    setSaved(false);
    try {
      await patch<NumberView>(`/numbers/${encodeURIComponent(id)}`, { webhook_url: webhookUrl.trim() || null });
      setSaved(true);
      number.reload();
    } catch (error) {
      setFailure(failureOf(error, ['webhook_url']));
    } finally {
      setBusy(false);
    }
  };

  const release = async () => {
    await del(`/numbers/${encodeURIComponent(id)}`);
    void navigate('/numbers');
  };

  if (number.error) {
    return (
      <section>
        <PageHeader title="Number" />
        <LoadError error={number.error} retry={number.reload} />
        <p>
          <Link to="/numbers">Back to numbers</Link>
        </p>
      </section>
    );
  }
  if (!number.data) return <Loading what="the number" />;
  const n = number.data;
  const released = n.status === 'released';

  return (
    <section>
      <p className="breadcrumb">
        <Link to="/numbers">Numbers</Link> <span aria-hidden="true">/</span>
      </p>
      <PageHeader
        title={n.phone_number}
        description={
          <>
            Forwards to {n.business_phone}. Provisioned {formatTime(n.created_at)}.
          </>
        }
      >
        <StatusBadge status={n.status} />
        <Link className="button button--secondary" to={`/calls?number_id=${encodeURIComponent(n.id)}`}>
          Calls to this number
        </Link>
      </PageHeader>
      {!mayManage ? <Notice tone="info">{roleReason(role, 'manage_numbers')}</Notice> : null}

      <form className="card" onSubmit={(event) => void save(event)} noValidate aria-labelledby="webhook-title">
        <h2 id="webhook-title">Webhook</h2>
        {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
        {saved ? <Notice tone="success">Webhook URL saved.</Notice> : null}
        <Field
          label="Webhook URL"
          name="webhook_url"
          type="url"
          inputMode="url"
          value={webhookUrl}
          onChange={(value) => {
            setWebhookUrl(value);
            setSaved(false);
          }}
          disabled={!mayManage || released}
          placeholder="https://example.com/hooks/switchboard"
          hint="Leave empty to stop sending webhooks for this number."
          error={failure?.fields['webhook_url']}
        />
        {mayManage && !released ? (
          <div className="actions">
            <Button type="submit" variant="primary" busy={busy}>
              Save webhook URL
            </Button>
          </div>
        ) : null}
      </form>

      <NumberAgent numberId={n.id} editable={mayManage && !released} />
      <NumberLostfoundLine numberId={n.id} editable={mayManage && !released} />

      <h2>Webhook deliveries</h2>
      <p className="hint">Every attempt to deliver an event to your webhook, newest first.</p>
      {deliveries.error ? <LoadError error={deliveries.error} retry={deliveries.reload} /> : null}
      {!deliveries.data && deliveries.loading ? <Loading what="deliveries" /> : null}
      {deliveries.data && deliveries.data.data.length === 0 ? <Empty>No deliveries yet.</Empty> : null}
      {deliveries.data && deliveries.data.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table" data-testid="deliveries-table">
            <caption className="visually-hidden">Webhook delivery attempts for {n.phone_number}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Call</th>
                <th scope="col">Attempt</th>
                <th scope="col">Result</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.data.map((delivery) => (
                <tr key={`${delivery.event_id}-${delivery.attempt}`}>
                  <td data-label="Time">{formatTime(delivery.delivered_at)}</td>
                  <td data-label="Event">
                    <Ident>{delivery.event_type}</Ident>
                  </td>
                  <td data-label="Call">
                    {delivery.call_sid ? (
                      <Link to={`/calls/${encodeURIComponent(delivery.call_sid)}`}>
                        <code>{shortSid(delivery.call_sid)}</code>
                      </Link>
                    ) : (
                      <span className="muted">not about a call</span>
                    )}
                  </td>
                  <td data-label="Attempt">{delivery.attempt}</td>
                  <td data-label="Result">
                    <StatusBadge
                      status={
                        delivery.status_code !== null && delivery.status_code >= 200 && delivery.status_code < 300
                          ? 'delivered'
                          : 'failed'
                      }
                    />{' '}
                    {delivery.status_code ?? 'no answer'}
                  </td>
                  <td data-label="Error">{delivery.error ?? <span className="muted">none</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <div className="actions">
        <Button variant="quiet" onClick={deliveries.reload}>
          Refresh deliveries
        </Button>
      </div>

      {mayManage && !released ? (
        <div className="card card--danger">
          <h2>Release this number</h2>
          <p>
            Calls to {n.phone_number} stop being answered and the number goes back to the provider. Its calls and
            recordings stay.
          </p>
          <ConfirmButton
            label="Release number"
            title={`Release ${n.phone_number}?`}
            body={<p>The number stops answering at once and cannot be got back. Its past calls stay in the console.</p>}
            confirmLabel="Release number"
            onConfirm={release}
          />
        </div>
      ) : null}
    </section>
  );
}

/** A call SID short enough for a table cell: its first 12 characters and an ellipsis when it is longer. */
function shortSid(sid: string): string {
  return sid.length > 13 ? `${sid.slice(0, 12)}…` : sid;
}
