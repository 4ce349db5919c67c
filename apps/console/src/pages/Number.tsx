import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api';
import {
  Button,
  ConfirmButton,
  Field,
  Ident,
  Listing,
  Loading,
  Notice,
  PageHeader,
  PageLoadError,
  StatusBadge,
  useDraft,
  useFormSend,
  useLoad,
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
  const number = useLoad(() => api.GET('/console/api/numbers/{id}', { params: { path: { id } } }), [id]);
  const deliveries = useLoad(
    () => api.GET('/console/api/numbers/{id}/webhook-deliveries', { params: { path: { id } } }),
    [id],
  );
  const [webhookUrl, setWebhookUrl] = useDraft(number.data, (current) => current.webhook_url ?? '', '');
  const { busy, failure, send } = useFormSend(['webhook_url']);
  const [saved, setSaved] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    await send(async () => {
      await api.PATCH('/console/api/numbers/{id}', {
        params: { path: { id } },
        body: { webhook_url: webhookUrl.trim() || null },
      });
      setSaved(true);
      number.reload();
    });
  };

  const release = async () => {
    await api.DELETE('/console/api/numbers/{id}', { params: { path: { id } } });
    void navigate('/numbers');
  };

  if (number.error) {
    return (
      <PageLoadError
        title="Number"
        error={number.error}
        retry={number.reload}
        back="/numbers"
        backLabel="Back to numbers"
      />
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
      <Listing
        load={deliveries}
        rows={deliveries.data?.data}
        what="deliveries"
        empty="No deliveries yet."
        caption={`Webhook delivery attempts for ${n.phone_number}`}
        testId="deliveries-table"
        rowKey={(delivery) => `${delivery.event_id}-${delivery.attempt}`}
        columns={[
          { header: 'Time', cell: (delivery) => formatTime(delivery.delivered_at) },
          { header: 'Event', cell: (delivery) => <Ident>{delivery.event_type}</Ident> },
          {
            header: 'Call',
            cell: (delivery) =>
              delivery.call_sid ? (
                <Link to={`/calls/${encodeURIComponent(delivery.call_sid)}`}>
                  <code>{shortSid(delivery.call_sid)}</code>
                </Link>
              ) : (
                <span className="muted">not about a call</span>
              ),
          },
          { header: 'Attempt', cell: (delivery) => delivery.attempt },
          {
            header: 'Result',
            cell: (delivery) => (
              <>
                <StatusBadge
                  status={
                    delivery.status_code !== null && delivery.status_code >= 200 && delivery.status_code < 300
                      ? 'delivered'
                      : 'failed'
                  }
                />{' '}
                {delivery.status_code ?? 'no answer'}
              </>
            ),
          },
          { header: 'Error', cell: (delivery) => delivery.error ?? <span className="muted">none</span> },
        ]}
      />
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
