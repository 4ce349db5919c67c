// What the pages before sign-in share (sign-in, the invitation, the password reset): their card, the token their
// emailed link carries, and the new password typed twice.
import { useEffect, useState, type ReactNode } from 'react';
import { Field, fieldFailure, type FormFailure } from './ui';

export const MIN_PASSWORD_LENGTH = 12;

/** The token an emailed link carries in its fragment (`#token=...`), so it never reaches a server log. */
export function tokenFromHash(hash: string): string | undefined {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? undefined;
}

/**
 * The emailed link's token and what the server says of it (`lookup`, asked once; nothing is asked without a token).
 * `lookupError` is also where a page puts the link's refusal when it is used (a 404: used or expired meanwhile).
 */
export function useEmailedLink<T>(lookup: (token: string) => Promise<T>) {
  const [token] = useState(() => tokenFromHash(window.location.hash));
  const [found, setFound] = useState<T>();
  const [lookupError, setLookupError] = useState<Error>();
  useEffect(() => {
    if (!token) return;
    let current = true;
    lookup(token).then(
      (answer) => current && setFound(answer),
      (error: Error) => current && setLookupError(error),
    );
    return () => {
      current = false;
    };
    // The lookup is the page's one request for its token: asked again only for another token.
  }, [token]);
  return { token, found, lookupError, setLookupError };
}

/** A page before sign-in: the brand, its title, what it asks, and a way elsewhere (`footer`) under it. */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main id="main" className="auth">
      <div className="auth-card">
        <p className="auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Switchboard
        </p>
        <h1>{title}</h1>
        {children}
        {footer}
      </div>
    </main>
  );
}

/** The failure to show when the two passwords typed differ (checked here, before anything is sent). */
export function passwordsDiffer(password: string, confirm: string): FormFailure | undefined {
  return password === confirm ? undefined : fieldFailure('confirm', 'The two passwords are not the same.');
}

/** The account's email, as the sign-in and the password reset ask for it (`hint`: what the page does with it). */
export function EmailField(props: {
  value: string;
  onChange: (value: string) => void;
  failure: FormFailure | undefined;
  hint?: string;
}) {
  return (
    <Field
      label="Email"
      name="email"
      type="email"
      autoComplete="username"
      required
      value={props.value}
      onChange={props.onChange}
      hint={props.hint}
      error={props.failure?.fields['email']}
    />
  );
}

/** A new password and the same again, with the rule it must meet and what the server or the check said of each. */
export function NewPasswordFields(props: {
  label: string;
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  failure: FormFailure | undefined;
}) {
  return (
    <>
      <Field
        label={props.label}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        value={props.password}
        onChange={props.onPassword}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. A passphrase of a few words is easiest to remember.`}
        error={props.failure?.fields['password']}
      />
      <Field
        label="Type it again"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        value={props.confirm}
        onChange={props.onConfirm}
        error={props.failure?.fields['confirm']}
      />
    </>
  );
}
