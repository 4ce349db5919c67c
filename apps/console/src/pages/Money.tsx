import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { LedgerEntryView } from '@switchboard/contracts';
import { api, type Schemas } from '../api';
import { UsageChart } from '../components/UsageChart';
import {
  Button,
  CursorPager,
  Field,
  Listing,
  LoadError,
  Loading,
  Notice,
  PageHeader,
  fieldFailure,
  messageOf,
  useDraft,
  useFormSend,
  useLoad,
} from '../components/ui';
import { formatCents, formatMillicents, formatMinutes, formatTime, humanize } from '../format';
import { centsText, toCents } from '../input';
import { roleReason, useSignedIn } from '../session';

export const LEDGER_PER_PAGE = 20;

export function MoneyPage() {
  const { can, role, mode } = useSignedIn();
  const balance = useLoad(() => api.GET('/console/api/balance'), []);
  const account = useLoad(() => api.GET('/console/api/account'), []);
  const usage = useLoad(() => api.GET('/console/api/usage/daily', { params: { query: { days: 30 } } }), []);

  return (
    <section>
      <PageHeader
        title="Billing"
        description="Your prepaid balance, what it was spent on, and how much your numbers are used."
      />
      {balance.error ? <LoadError error={balance.error} retry={balance.reload} /> : null}
      <div className="stats">
        <div className="stat">
          <p className="stat-label">Balance</p>
          <p className="stat-value" data-testid="balance">
            {balance.data ? formatCents(balance.data.balance_cents) : '…'}
          </p>
        </div>
        <div className="stat">
          <p className="stat-label">Tier</p>
          <p className="stat-value">{balance.data ? humanize(balance.data.tier) : '…'}</p>
          {account.data ? <p className="stat-note">Up to {account.data.number_limit} numbers</p> : null}
        </div>
        <div className="stat">
          <p className="stat-label">Talk time, {balance.data?.period ?? 'this month'}</p>
          <p className="stat-value">{balance.data ? formatMinutes(balance.data.seconds_used) : '…'}</p>
          {balance.data ? (
            // The tier's minutes are a cap, not free minutes: every second is billed at the tier's rate (ADR 0013).
            <p className="stat-note" data-testid="talk-time-note">
              {balance.data.minutes_included === null
                ? "No monthly cap. Every second is billed at your tier's rate."
                : `of your ${balance.data.minutes_included} min monthly cap. Every second is billed at your tier's rate; at the cap, calls ring through to your business phone.`}
            </p>
          ) : null}
        </div>
      </div>

      <div className="card">
        <h2 id="usage-title">Calls and minutes, last 30 days</h2>
        {usage.error ? <LoadError error={usage.error} retry={usage.reload} /> : null}
        {!usage.data && usage.loading ? <Loading what="usage" /> : null}
        {usage.data ? <UsageChart days={usage.data.data} /> : null}
      </div>

      {mode !== 'test' ? (
        <CardOnFile mayChange={can('manage_money')} reason={roleReason(role, 'manage_money')} />
      ) : null}

      {account.error ? <LoadError error={account.error} retry={account.reload} /> : null}
      {mode === 'test' ? (
        // The auto top-up route acts on the live account whatever the session's mode, and test data never reaches a
        // real processor (docs/adr/0087 and 0131): a form or a card here would change real charges from a test page.
        <div className="card" data-testid="auto-top-up-live-only">
          <h2>Auto top-up</h2>
          <p>Auto top-up and its card belong to your live account: switch off Test data to see or change them.</p>
        </div>
      ) : account.data ? (
        <AutoTopUpForm
          account={account.data}
          mayChange={can('manage_money')}
          reason={roleReason(role, 'manage_money')}
          onSaved={() => {
            account.reload();
            balance.reload();
          }}
        />
      ) : null}

      <Ledger />
    </section>
  );
}

function AutoTopUpForm({
  account,
  mayChange,
  reason,
  onSaved,
}: {
  account: Schemas['ConsoleAccountView'];
  mayChange: boolean;
  reason: string;
  onSaved: () => void;
}) {
  // Turned off, the fields keep what they held (disabled) for turning it on again.
  const [draft, setDraft] = useDraft(
    account,
    (current, previous) =>
      current.auto_top_up
        ? {
            enabled: true,
            threshold: centsText(current.auto_top_up.threshold_cents),
            amount: centsText(current.auto_top_up.amount_cents),
          }
        : { ...previous, enabled: false },
    { enabled: false, threshold: '10.00', amount: '50.00' },
  );
  const { enabled, threshold, amount } = draft;
  const { busy, failure, setFailure, send } = useFormSend(['threshold_cents', 'amount_cents']);
  const [saved, setSaved] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    setSaved(false);
    let body: null | { threshold_cents: number; amount_cents: number } = null;
    if (enabled) {
      const thresholdCents = toCents(threshold);
      const amountCents = toCents(amount);
      if (thresholdCents === undefined)
        return setFailure(fieldFailure('threshold_cents', 'Write an amount in dollars, such as 10 or 10.50.'));
      if (amountCents === undefined)
        return setFailure(fieldFailure('amount_cents', 'Write an amount in dollars, such as 50 or 50.00.'));
      body = { threshold_cents: thresholdCents, amount_cents: amountCents };
    }
    await send(async () => {
      await api.PUT('/console/api/account/auto-top-up', { body });
      setSaved(true);
      onSaved();
    });
  };

  return (
    <form className="card" onSubmit={(event) => void save(event)} noValidate aria-labelledby="auto-top-up-title">
      <h2 id="auto-top-up-title">Auto top-up</h2>
      <p className="hint">
        {account.auto_top_up
          ? `On: when the balance falls below ${formatCents(account.auto_top_up.threshold_cents)}, ${formatCents(account.auto_top_up.amount_cents)} is charged to your card.`
          : 'Off: when the balance runs out, calls stop being answered until you top up.'}
      </p>
      {!mayChange ? <Notice tone="info">{reason}</Notice> : null}
      {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
      {saved ? <Notice tone="success">Auto top-up saved.</Notice> : null}
      <div className="checkbox">
        <input
          id="auto-top-up-enabled"
          type="checkbox"
          checked={enabled}
          disabled={!mayChange}
          onChange={(event) => setDraft((current) => ({ ...current, enabled: event.target.checked }))}
        />
        <label htmlFor="auto-top-up-enabled">Top up automatically</label>
      </div>
      <div className="grid-2">
        <Field
          label="When the balance falls below (USD)"
          name="threshold_cents"
          inputMode="decimal"
          required
          value={threshold}
          onChange={(value) => setDraft((current) => ({ ...current, threshold: value }))}
          disabled={!mayChange || !enabled}
          error={failure?.fields['threshold_cents']}
        />
        <Field
          label="Add this much (USD)"
          name="amount_cents"
          inputMode="decimal"
          required
          value={amount}
          onChange={(value) => setDraft((current) => ({ ...current, amount: value }))}
          disabled={!mayChange || !enabled}
          hint="Between $5 and $500."
          error={failure?.fields['amount_cents']}
        />
      </div>
      {mayChange ? (
        <div className="actions">
          <Button type="submit" variant="primary" busy={busy}>
            Save auto top-up
          </Button>
        </div>
      ) : null}
    </form>
  );
}

/** How often, and how many times, the page asks again for a card Stripe has not confirmed yet after Checkout. */
const CARD_CONFIRM_POLL_MS = 1_000;
const CARD_CONFIRM_POLLS = 10;

/**
 * The card auto-top-up charges, connected on Stripe's own page (Checkout in setup mode, docs/adr/0131): "Add a
 * card" sends the browser there; Stripe sends it back here with `?card=added` (or `cancelled`). Stripe's webhook may
 * come a moment after the browser, so the page asks again for a while until the card shows.
 */
function CardOnFile({ mayChange, reason }: { mayChange: boolean; reason: string }) {
  const [params] = useSearchParams();
  const returned = params.get('card');
  const method = useLoad(() => api.GET('/console/api/payment-method'), []);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [polls, setPolls] = useState(0);
  const waiting = returned === 'added' && method.data?.processor === 'stripe' && !method.data.card;

  useEffect(() => {
    if (!waiting || method.loading || polls >= CARD_CONFIRM_POLLS) return;
    const timer = setTimeout(() => {
      setPolls((n) => n + 1);
      method.reload();
    }, CARD_CONFIRM_POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, method.loading, polls]);

  const addCard = async () => {
    setFailure(undefined);
    setBusy(true);
    try {
      const session = await api.POST('/console/api/payment-method/setup');
      window.location.assign(session.url);
    } catch (error) {
      setFailure(messageOf(error));
      setBusy(false);
    }
  };

  const card = method.data?.card;
  return (
    <section className="card" aria-labelledby="card-title">
      <h2 id="card-title">Card for auto top-up</h2>
      {method.error ? <LoadError error={method.error} retry={method.reload} /> : null}
      {!method.data && method.loading ? <Loading what="your card" /> : null}
      {method.data?.processor === 'simulated' ? (
        <p className="hint" data-testid="card-simulated">
          No payment processor is set up on this system: auto top-up is charged by the simulated processor, with no card
          to connect.
        </p>
      ) : null}
      {method.data?.processor === 'stripe' ? (
        <>
          {card ? (
            <p className="stat-value" data-testid="card-on-file">
              {humanize(card.brand)} ending in {card.last4}
            </p>
          ) : (
            <p className="hint" data-testid="no-card">
              No card yet. Auto top-up charges the card you connect here; you enter it on Stripe&apos;s page, and
              Switchboard never sees its number.
            </p>
          )}
          {returned === 'added' && card ? <Notice tone="success">Card connected.</Notice> : null}
          {waiting && polls < CARD_CONFIRM_POLLS ? <Notice tone="info">Stripe is confirming your card…</Notice> : null}
          {waiting && polls >= CARD_CONFIRM_POLLS ? (
            <Notice tone="warning">Stripe has not confirmed the card yet. Reload this page in a minute.</Notice>
          ) : null}
          {returned === 'cancelled' ? <Notice tone="info">No card was added.</Notice> : null}
          {failure ? <Notice tone="error">{failure}</Notice> : null}
          {!mayChange ? <Notice tone="info">{reason}</Notice> : null}
          {mayChange ? (
            <div className="actions">
              <Button variant={card ? 'secondary' : 'primary'} busy={busy} onClick={() => void addCard()}>
                {card ? 'Replace the card' : 'Add a card'}
              </Button>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

/** A talk-time entry's reference (`talk_time:<call sid>`) names its call: the call's id in the text links to its page. */
function EntryText({ entry }: { entry: LedgerEntryView }): ReactNode {
  const text = entry.description || humanize(entry.kind);
  const sid = entry.kind === 'talk_time' && entry.reference.startsWith('talk_time:') ? entry.reference.slice(10) : '';
  if (!sid) return text;
  const link = (
    <Link to={`/calls/${encodeURIComponent(sid)}`}>
      <code>{sid}</code>
    </Link>
  );
  const at = text.indexOf(sid);
  // One span: at phone width the cell lays out its children as flex items.
  if (at < 0)
    return (
      <span>
        {text} ({link})
      </span>
    );
  return (
    <span>
      {text.slice(0, at)}
      {link}
      {text.slice(at + sid.length)}
    </span>
  );
}

function Ledger() {
  const [after, setAfter] = useState('');
  const [trail, setTrail] = useState<string[]>([]);
  const ledger = useLoad(
    () => api.GET('/console/api/ledger', { params: { query: { limit: LEDGER_PER_PAGE, starting_after: after } } }),
    [after],
  );
  const next = () => {
    const data = ledger.data?.data ?? [];
    if (data.length === 0) return;
    setTrail((previous) => [...previous, after]);
    setAfter(data[data.length - 1].id);
  };
  const previous = () => {
    setAfter(trail[trail.length - 1] ?? '');
    setTrail((all) => all.slice(0, -1));
  };
  return (
    <>
      <h2>Ledger</h2>
      <p className="hint">Every change to the balance, newest first.</p>
      <Listing
        load={ledger}
        rows={ledger.data?.data}
        what="the ledger"
        empty="No entries yet."
        caption="Ledger entries, newest first"
        testId="ledger-table"
        rowKey={(entry) => entry.id}
        columns={[
          { header: 'Time', cell: (entry) => formatTime(entry.created_at) },
          { header: 'What', cell: (entry) => <EntryText entry={entry} /> },
          {
            header: 'Amount',
            className: 'num',
            cellClassName: (entry) => (entry.amount_millicents < 0 ? 'negative' : 'positive'),
            cell: (entry) => `${entry.amount_millicents > 0 ? '+' : ''}${formatMillicents(entry.amount_millicents)}`,
          },
          {
            header: 'Balance after',
            className: 'num',
            cell: (entry) => formatMillicents(entry.balance_after_millicents),
          },
        ]}
      />
      <CursorPager
        label="Pages of the ledger"
        onPrevious={previous}
        onNext={next}
        hasPrevious={Boolean(after)}
        hasNext={Boolean(ledger.data?.has_more)}
      />
    </>
  );
}
