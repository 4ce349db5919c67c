import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, newIdempotencyKey, type Schemas } from '../api';
import {
  Button,
  Field,
  Listing,
  Notice,
  OneTimeSecret,
  PageHeader,
  StatusBadge,
  useFormSend,
  useLoad,
} from '../components/ui';
import { formatTime } from '../format';
import { roleReason, useSignedIn } from '../session';

const FIELDS = ['business_phone', 'area_code', 'webhook_url'] as const;

/** Every number of the account (the API pages by 100 at most; a console account has a handful). */
export async function allNumbers(): Promise<Schemas['NumberView'][]> {
  const numbers: Schemas['NumberView'][] = [];
  let after: string | undefined;
  for (let page = 0; page < 20; page++) {
    const answer = await api.GET('/console/api/numbers', { params: { query: { limit: 100, starting_after: after } } });
    numbers.push(...answer.data);
    if (!answer.has_more || answer.data.length === 0) break;
    after = answer.data[answer.data.length - 1].id;
  }
  return numbers;
}

export function NumbersPage() {
  const { can, role } = useSignedIn();
  const mayManage = can('manage_numbers');
  const numbers = useLoad(allNumbers, []);
  const [form, setForm] = useState({ business_phone: '', area_code: '', webhook_url: '' });
  const { busy, failure, send } = useFormSend(FIELDS);
  const [created, setCreated] = useState<Schemas['NumberCreated']>();

  // Provisioning charges the account: one Idempotency-Key per form as filled in, so sending the same form again
  // (a lost answer, a retry) answers the first result instead of buying a second number. A change makes a new one.
  const idempotencyKey = useRef(newIdempotencyKey());
  const set = (name: keyof typeof form) => (value: string) => {
    idempotencyKey.current = newIdempotencyKey();
    setForm((previous) => ({ ...previous, [name]: value }));
  };

  const provision = async (event: FormEvent) => {
    event.preventDefault();
    await send(async () => {
      const answer = await api.POST('/console/api/numbers', {
        params: { header: { 'Idempotency-Key': idempotencyKey.current } },
        body: {
          business_phone: form.business_phone.trim(),
          area_code: form.area_code.trim() || undefined,
          webhook_url: form.webhook_url.trim() || undefined,
        },
      });
      idempotencyKey.current = newIdempotencyKey();
      setCreated(answer);
      setForm({ business_phone: '', area_code: '', webhook_url: '' });
      numbers.reload();
    });
  };

  const fieldError = (name: string) => failure?.fields[name];

  return (
    <section>
      <PageHeader
        title="Numbers"
        description="Local US numbers your AI agent answers. Each forwards to your business phone and reports calls to your webhook."
      />
      {!mayManage ? <Notice tone="info">{roleReason(role, 'manage_numbers')}</Notice> : null}

      {created ? (
        <OneTimeSecret label={`Webhook secret for ${created.phone_number}`} value={created.webhook_secret}>
          <p className="hint">Your server checks each webhook's signature with this secret (see the webhooks guide).</p>
          <Button variant="quiet" onClick={() => setCreated(undefined)}>
            I have copied it
          </Button>
        </OneTimeSecret>
      ) : null}

      {mayManage ? (
        <form className="card" onSubmit={(event) => void provision(event)} noValidate aria-labelledby="provision-title">
          <h2 id="provision-title">Get a number</h2>
          {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
          <div className="grid-3">
            <Field
              label="Business phone"
              name="business_phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              required
              value={form.business_phone}
              onChange={set('business_phone')}
              placeholder="+14155550123"
              hint="Where calls are forwarded, in E.164 form (+1…)."
              error={fieldError('business_phone')}
            />
            <Field
              label="Area code"
              name="area_code"
              inputMode="numeric"
              value={form.area_code}
              onChange={set('area_code')}
              placeholder="415"
              hint="Default: the business phone's."
              error={fieldError('area_code')}
            />
            <Field
              label="Webhook URL"
              name="webhook_url"
              type="url"
              inputMode="url"
              value={form.webhook_url}
              onChange={set('webhook_url')}
              placeholder="https://example.com/hooks/switchboard"
              hint="HTTPS; receives call.completed."
              error={fieldError('webhook_url')}
            />
          </div>
          <div className="actions">
            <Button type="submit" variant="primary" busy={busy}>
              {busy ? 'Provisioning…' : 'Provision number'}
            </Button>
          </div>
        </form>
      ) : null}

      <h2>Your numbers</h2>
      <Listing
        load={numbers}
        rows={numbers.data}
        what="numbers"
        empty="No numbers yet."
        caption="Phone numbers of this account"
        testId="numbers-table"
        rowKey={(number) => number.id}
        columns={[
          {
            header: 'Number',
            cell: (number) => <Link to={`/numbers/${number.id}`}>{number.phone_number}</Link>,
          },
          { header: 'Forwards to', cell: (number) => number.business_phone },
          { header: 'Status', cell: (number) => <StatusBadge status={number.status} /> },
          {
            header: 'Webhook',
            className: 'truncate',
            cell: (number) =>
              number.webhook_url ? (
                <span title={number.webhook_url}>{number.webhook_url}</span>
              ) : (
                <span className="muted">none</span>
              ),
          },
          { header: 'Since', cell: (number) => formatTime(number.created_at) },
        ]}
      />
    </section>
  );
}
