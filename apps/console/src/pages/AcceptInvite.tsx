import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api';
import { AuthCard, NewPasswordFields, passwordsDiffer, useEmailedLink } from '../components/auth';
import { Button, Fact, LoadError, Loading, Notice, useFormSend } from '../components/ui';
import { formatTime, humanize } from '../format';
import { useSession } from '../session';

export function AcceptInvitePage() {
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const {
    token,
    found: invite,
    lookupError,
  } = useEmailedLink((token) => api.POST('/console/api/invites/lookup', { body: { token } }));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { busy, failure, setFailure, send } = useFormSend(['password']);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    // The form is shown only for a link with a token.
    if (!token) return;
    const differ = passwordsDiffer(password, confirm);
    if (differ) return setFailure(differ);
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
          <Fact label="Account">{invite.account_name}</Fact>
          <Fact label="Email">{invite.email}</Fact>
          <Fact label="Role">{humanize(invite.role)}</Fact>
          <Fact label="Link valid until">{formatTime(invite.expires_at)}</Fact>
        </dl>
        <form onSubmit={(event) => void submit(event)} noValidate>
          {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
          <input type="email" name="username" autoComplete="username" value={invite.email} readOnly hidden />
          <NewPasswordFields
            label="Choose a password"
            password={password}
            confirm={confirm}
            onPassword={setPassword}
            onConfirm={setConfirm}
            failure={failure}
          />
          <Button type="submit" variant="primary" busy={busy} className="button--block">
            {busy ? 'Setting up…' : 'Set password and sign in'}
          </Button>
        </form>
      </>
    );
  }

  return (
    <AuthCard
      title="Accept your invitation"
      footer={
        <p className="hint">
          Already have a password? <Link to="/sign-in">Sign in</Link>.
        </p>
      }
    >
      {body}
    </AuthCard>
  );
}
