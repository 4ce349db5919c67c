import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { api, ApiError } from '../api';
import { AuthCard, EmailField, NewPasswordFields, passwordsDiffer, useEmailedLink } from '../components/auth';
import { Button, Fact, LoadError, Loading, Notice, failureOf, useFormSend, type FormFailure } from '../components/ui';
import { formatTime } from '../format';
import { useSession } from '../session';

const LINK_NOT_VALID =
  'This password reset link is not valid any more: it was used, a newer one was sent, it is over 30 minutes old, or it was mistyped.';

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <AuthCard
      title={title}
      footer={
        <p className="hint">
          Remembered it? <Link to="/sign-in">Sign in</Link>.
        </p>
      }
    >
      {children}
    </AuthCard>
  );
}

/** "Forgot your password?": the address, then the same answer whether it has a user or not (docs/adr/0066). */
export function ForgotPasswordPage() {
  const { status } = useSession();
  const [email, setEmail] = useState('');
  const { busy, failure, send } = useFormSend(['email']);
  const [answer, setAnswer] = useState<string>();

  if (status === 'signed-in') return <Navigate to="/" replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await send(async () => {
      const sent = await api.POST('/console/api/password-resets', { body: { email: email.trim() } });
      setAnswer(sent.message);
    });
  };

  return (
    <Card title="Reset your password">
      {answer ? (
        <>
          <Notice tone="success">{answer}</Notice>
          <p className="hint">Nothing after a few minutes? Check the address and your spam folder, then ask again.</p>
          <Button className="button--block" onClick={() => setAnswer(undefined)}>
            Ask again
          </Button>
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
          <EmailField
            value={email}
            onChange={setEmail}
            failure={failure}
            hint="We email a link to choose a new password. It works once, for 30 minutes."
          />
          <Button type="submit" variant="primary" busy={busy} className="button--block">
            {busy ? 'Sending…' : 'Email me a link'}
          </Button>
        </form>
      )}
    </Card>
  );
}

/** The emailed link: a new password, then signed in here and signed out everywhere else. */
export function ResetPasswordPage() {
  const { signedIn } = useSession();
  const navigate = useNavigate();
  const {
    token,
    found: reset,
    lookupError,
    setLookupError,
  } = useEmailedLink((token) => api.POST('/console/api/password-resets/lookup', { body: { token } }));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    // The form is shown only for a link with a token.
    if (!token) return;
    const differ = passwordsDiffer(password, confirm);
    if (differ) return setFailure(differ);
    setBusy(true);
    try {
      const session = await api.POST('/console/api/password-resets/complete', { body: { token, password } });
      signedIn(session);
      // The token has done its work: drop it from the address bar and history.
      window.history.replaceState(null, '', window.location.pathname);
      void navigate('/', { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setLookupError(error);
      else setFailure(failureOf(error, ['password']));
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (!token) {
    body = (
      <Notice tone="error">
        This link has no reset token in it. Open the link from the email exactly as it was sent.
      </Notice>
    );
  } else if (lookupError) {
    body =
      lookupError instanceof ApiError && lookupError.status === 404 ? (
        <Notice tone="error">
          {LINK_NOT_VALID} <Link to="/forgot-password">Ask for a new link</Link>.
        </Notice>
      ) : (
        <LoadError error={lookupError} />
      );
  } else if (!reset) {
    body = <Loading what="your reset link" />;
  } else {
    body = (
      <>
        <dl className="facts" data-testid="reset-facts">
          <Fact label="Email">{reset.email}</Fact>
          <Fact label="Link valid until">{formatTime(reset.expires_at)}</Fact>
        </dl>
        <form onSubmit={(event) => void submit(event)} noValidate>
          {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
          <input type="email" name="username" autoComplete="username" value={reset.email} readOnly hidden />
          <NewPasswordFields
            label="New password"
            password={password}
            confirm={confirm}
            onPassword={setPassword}
            onConfirm={setConfirm}
            failure={failure}
          />
          <Button type="submit" variant="primary" busy={busy} className="button--block">
            {busy ? 'Saving…' : 'Set password and sign in'}
          </Button>
          <p className="hint">Every other session of yours is signed out.</p>
        </form>
      </>
    );
  }

  return <Card title="Choose a new password">{body}</Card>;
}
