import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api';
import { AuthCard, EmailField } from '../components/auth';
import { Button, Field, Notice, useFormSend } from '../components/ui';
import { safeNext } from '../input';
import { useSession } from '../session';

export function SignInPage() {
  const { status, signedIn } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, failure, send } = useFormSend(['email', 'password']);
  const next = safeNext(params.get('next'));

  if (status === 'signed-in') return <Navigate to={next} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await send(async () => {
      const session = await api.POST('/console/api/sign-in', { body: { email, password } });
      signedIn(session);
      void navigate(next, { replace: true });
    });
  };

  return (
    <AuthCard
      title="Sign in to the console"
      footer={
        <>
          <p className="hint">
            <Link to="/forgot-password">Forgot your password?</Link>
          </p>
          <p className="hint">
            No account yet? An owner of your account, or Switchboard's operators, can invite you by email.
          </p>
        </>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
        <EmailField value={email} onChange={setEmail} failure={failure} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={setPassword}
          error={failure?.fields['password']}
        />
        <Button type="submit" variant="primary" busy={busy} className="button--block">
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </AuthCard>
  );
}
