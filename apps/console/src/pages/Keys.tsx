import { useState, type FormEvent } from 'react';
import type { ApiKeyMode } from '@switchboard/contracts';
import { api, ApiError, type Schemas } from '../api';
import {
  Button,
  ConfirmButton,
  Field,
  Ident,
  Listing,
  Notice,
  OneTimeSecret,
  PageHeader,
  StatusBadge,
  failureOf,
  useLoad,
  type FormFailure,
} from '../components/ui';
import { formatTime } from '../format';
import { parseAllowlist } from '../input';
import { roleReason, useSignedIn } from '../session';

export const ACTIVE_KEY_LIMIT = 5;

/** A key's visible start, ending in one ellipsis whether or not the server's prefix has it. */
export function shown(prefix: string): string {
  return `${prefix.replace(/…$/, '')}…`;
}

export function KeysPage() {
  const { can, role, mode: dataMode } = useSignedIn();
  const mayManage = can('manage_keys');
  // A viewer may not see keys at all (403): the page says so instead of asking.
  const keys = useLoad(() => (mayManage ? api.GET('/console/api/keys') : Promise.resolve(undefined)), [mayManage]);
  const [allowlist, setAllowlist] = useState('');
  // In test data (docs/adr/0087) the page lists test keys alone, so it makes test keys unless told otherwise.
  const [mode, setMode] = useState<ApiKeyMode>(dataMode);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>();
  const [limitHit, setLimitHit] = useState(false);
  const [fresh, setFresh] = useState<Schemas['ConsoleKeyCreated']>();
  const [notice, setNotice] = useState<string>();

  const active = keys.data?.data.filter((key) => !key.revoked_at) ?? [];
  const revoked = keys.data?.data.filter((key) => key.revoked_at) ?? [];
  // In test data the list holds test keys alone; the server counts both modes' active keys over all of them.
  const activeOf = (of: ApiKeyMode) => keys.data?.active[of] ?? 0;

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    setLimitHit(false);
    setNotice(undefined);
    try {
      const list = parseAllowlist(allowlist);
      const created = await api.POST('/console/api/keys', {
        body: { mode, ...(list.length ? { ip_allowlist: list } : {}) },
      });
      setFresh(created);
      setAllowlist('');
      keys.reload();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'key_limit') setLimitHit(true);
      setFailure(failureOf(error, ['ip_allowlist', 'mode']));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (key: Schemas['ConsoleKeyView']) => {
    await api.DELETE('/console/api/keys/{id}', { params: { path: { id: key.id } } });
    if (fresh?.replaces === key.id || fresh?.id === key.id) setFresh(undefined);
    setNotice(`Key ${shown(key.prefix)} is revoked: requests with it are refused from now on.`);
    keys.reload();
  };

  const rotate = async (key: Schemas['ConsoleKeyView']) => {
    setNotice(undefined);
    const created = await api.POST('/console/api/keys/{id}/rotate', { params: { path: { id: key.id } } });
    setFresh({ ...created, replaces: created.replaces ?? key.id });
    keys.reload();
  };

  const replaced = fresh?.replaces
    ? keys.data?.data.find((key) => key.id === fresh.replaces && !key.revoked_at)
    : undefined;

  return (
    <section aria-labelledby="keys-title">
      <PageHeader
        title="API keys"
        description="Keys let your servers call the Switchboard API (/v1). Live keys (sk_live_) work with real numbers and money; test keys (sk_test_) run against simulated providers and see only test data. Up to five active keys of each kind."
      />
      {!mayManage ? <Notice tone="info">{roleReason(role, 'manage_keys')}</Notice> : null}
      {notice ? <Notice tone="success">{notice}</Notice> : null}

      {fresh ? (
        <OneTimeSecret
          label={`${fresh.replaces ? 'Your new key (rotation)' : 'Your new API key'}${fresh.mode === 'test' ? ': test mode' : ''}`}
          value={fresh.key}
        >
          {replaced ? (
            <div className="secret-next">
              <p>
                The old key <code>{shown(replaced.prefix)}</code> keeps working until you revoke it. Deploy the new key
                first, then revoke the old one.
              </p>
              <ConfirmButton
                label={`Revoke old key ${shown(replaced.prefix)}`}
                title="Revoke the old key?"
                body={
                  <p>
                    Requests that still use {shown(replaced.prefix)} will be refused at once. This cannot be undone.
                  </p>
                }
                confirmLabel="Revoke old key"
                onConfirm={() => revoke(replaced)}
              />
            </div>
          ) : null}
          <Button variant="quiet" onClick={() => setFresh(undefined)}>
            I have copied it
          </Button>
        </OneTimeSecret>
      ) : null}

      {mayManage ? (
        <form className="card" onSubmit={(event) => void create(event)} noValidate aria-labelledby="new-key-title">
          <h2 id="new-key-title">Create a key</h2>
          {failure?.message ? (
            <Notice tone="error" title={limitHit ? `Five active ${mode} keys already` : undefined}>
              {failure.message}
            </Notice>
          ) : null}
          <div className="field">
            <label htmlFor="key-mode">Mode</label>
            <select
              id="key-mode"
              name="mode"
              value={mode}
              onChange={(event) => setMode(event.target.value as ApiKeyMode)}
              aria-describedby="key-mode-hint"
            >
              <option value="live">Live: real numbers, calls and money</option>
              <option value="test">Test: simulated providers, test data only</option>
            </select>
            <p className="hint" id="key-mode-hint">
              A test key&apos;s numbers, calls and balance are its own and answer with <code>livemode: false</code>.
            </p>
          </div>
          <Field
            label="Allowed IP addresses"
            name="ip_allowlist"
            multiline
            value={allowlist}
            onChange={setAllowlist}
            placeholder="203.0.113.7, 198.51.100.0/24"
            hint="Addresses or CIDR ranges, separated by commas or new lines. Leave empty to accept requests from anywhere."
            error={failure?.fields['ip_allowlist']}
          />
          <div className="actions">
            <Button type="submit" variant="primary" busy={busy}>
              Create key
            </Button>
            {keys.data ? (
              <span className="hint">
                {activeOf('live')} of {ACTIVE_KEY_LIMIT} live keys, {activeOf('test')} of {ACTIVE_KEY_LIMIT} test keys
                {activeOf(mode) >= ACTIVE_KEY_LIMIT ? `: revoke a ${mode} key before creating another.` : ''}
              </span>
            ) : null}
          </div>
        </form>
      ) : null}

      {mayManage ? <h2>Keys</h2> : null}
      <Listing
        load={keys}
        rows={keys.data && [...active, ...revoked]}
        what="keys"
        empty={dataMode === 'test' ? 'No test keys yet.' : 'No keys yet.'}
        caption="API keys of this account, active first"
        testId="keys-table"
        rowKey={(key) => key.id}
        rowAttributes={(key) => ({ 'data-key-id': key.id })}
        columns={[
          { header: 'Key', cell: (key) => <Ident>{shown(key.prefix)}</Ident> },
          {
            header: 'Mode',
            cell: (key) => (
              <span className={`badge badge--${key.mode === 'test' ? 'warn' : 'neutral'}`}>{key.mode}</span>
            ),
          },
          {
            header: 'Allowed from',
            cell: (key) => (key.ip_allowlist?.length ? key.ip_allowlist.join(', ') : 'anywhere'),
          },
          { header: 'Created', cell: (key) => formatTime(key.created_at) },
          { header: 'Last used', cell: (key) => formatTime(key.last_used_at) },
          { header: 'Status', cell: (key) => <StatusBadge status={key.revoked_at ? 'revoked' : 'active'} /> },
          mayManage && {
            header: 'Actions',
            hideHeader: true,
            className: 'row-actions',
            cell: (key) =>
              key.revoked_at ? null : (
                <>
                  <ConfirmButton
                    variant="secondary"
                    label="Rotate"
                    accessibleLabel={`Rotate key ${shown(key.prefix)}`}
                    title={`Rotate key ${shown(key.prefix)}?`}
                    body={
                      <p>
                        A new key is made and shown once. The old one keeps working until you revoke it, so you can
                        deploy the new one first.
                      </p>
                    }
                    confirmLabel="Make the new key"
                    onConfirm={() => rotate(key)}
                  />
                  <ConfirmButton
                    label="Revoke"
                    accessibleLabel={`Revoke key ${shown(key.prefix)}`}
                    title={`Revoke key ${shown(key.prefix)}?`}
                    body={<p>Requests with this key will be refused at once. This cannot be undone.</p>}
                    confirmLabel="Revoke key"
                    onConfirm={() => revoke(key)}
                  />
                </>
              ),
          },
        ]}
      />
    </section>
  );
}
