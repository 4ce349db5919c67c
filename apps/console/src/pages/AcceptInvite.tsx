import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, type Schemas } from '../api';
import { Button, Field, LoadError, Loading, Notice, fieldFailure, useFormSend } from '../components/ui';
import { formatTime, humanize } from '../format';
import { useSession } from '../session';

/** The token travels in the fragment (`#token=...`), so it never reaches a server log. */
function tokenFromHash(hash: string): string | undefined {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? undefined;
}

export const MIN_PASSWORD_LENGTH = 12;

export function AcceptInvitePage() {
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromHash(window.location.hash));
  const [invite, setInvite] = useState<Schemas['ConsoleInviteLookup']>();
  const [lookupError, setLookupError] = useState<Error>();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, failure, setFailure, send } = useFormSend(['password']);

  useEffect(() => {
    if (!token) return;
    let current = true;
    api.POST('/console/api/invites/lookup', { body: { token } }).then(
      (answer) => current && setInvite(answer),
      (error: Error) => current && setLookupError(error),
    );
    return () => {
      current = false;
    };
  }, [token]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    // The form is shown only for a link with a token.
    if (!token) return;
    if (password !== confirm) {
      setFailure(fieldFailure('confirm', 'The two passwords are not the same.'));
      return;
    }
    await send(async () => {
      const session = await api.POST('/console/api/invites/accept', { body: { token, password } });
      signedIn(session);
      // The token has done its work: drop it from the address bar and history.
      window.history.replaceState(null, '', window.location.pathname);
      void navigate('/', { replace: true });
    });
  };

  let body;
  if (!token) {
    body = (
      <Notice tone="error">
        This link has no invitation in it. Open the link from your invitation email exactly as it was sent.
      </Notice>
    );
  } else if (lookupError) {
    body = <LoadError error={lookupError} />;
  } else if (!invite) {
    body = <Loading what="your invitation" />;
  } else {
    body = (
      <>
        <dl className="facts" data-testid="invite-facts">
          <div>
            <dt>Account</dt>
            <dd>{invite.account_name}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{invite.email}</dd>
          </div>
          <div>
            <dt>Role</dt>
            <dd>{humanize(invite.role)}</dd>
          </div>
          <div>
            <dt>Link valid until</dt>
            <dd>{formatTime(invite.expires_at)}</dd>
          </div>
        </dl>
        <form onSubmit={(event) => void submit(event)} noValidate>
          {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
          <input type="email" name="username" autoComplete="username" value={invite.email} readOnly hidden />
          <Field
            label="Choose a password"
            name="password"
            type="password"
            autoComplete="new-password"
            required
            value={password}
            onChange={setPassword}
            hint={`At least ${MIN_PASSWORD_LENGTH} characters. A passphrase of a few words is easiest to remember.`}
            error={failure?.fields['password']}
          />
          <Field
            label="Type it again"
            name="confirm"
            type="password"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={setConfirm}
            error={failure?.fields['confirm']}
          />
          <Button type="submit" variant="primary" busy={busy} className="button--block">
            {busy ? 'Setting up…' : 'Set password and sign in'}
          </Button>
        </form>
      </>
    );
  }

  return (
    <main id="main" className="auth">
      <div className="auth-card">
        <p className="auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Switchboard
        </p>
        <h1>Accept your invitation</h1>
        {body}
        <p className="hint">
          Already have a password? <Link to="/sign-in">Sign in</Link>.
        </p>
      </div>
    </main>
  );
}
