import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { BrowserRouter, Navigate, NavLink, Outlet, Route, Routes, useLocation, useNavigate } from 'react-router';
import { Button, Notice, messageOf } from './components/ui';
import { AcceptInvitePage } from './pages/AcceptInvite';
import { CallPage } from './pages/Call';
import { ClaimantPage } from './pages/Claimant';
import { CallsPage } from './pages/Calls';
import { DataSettingsPage } from './pages/DataSettings';
import { DeskClaimPage } from './pages/DeskClaim';
import { DeskClaimsPage } from './pages/DeskClaims';
import { DeskItemPage } from './pages/DeskItem';
import { DeskItemsPage } from './pages/DeskItems';
import { KeysPage } from './pages/Keys';
import { NumberPage } from './pages/Number';
import { NumbersPage } from './pages/Numbers';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/ResetPassword';
import { SignInPage } from './pages/SignIn';
import { TeamPage } from './pages/Team';
import { roleCan, SessionProvider, useSession, useSignedIn, type Action } from './session';

// Billing carries the chart library (two thirds of the script): loaded when the page is first opened.
const MoneyPage = lazy(() => import('./pages/Money').then((module) => ({ default: module.MoneyPage })));

export function App() {
  return (
    <BrowserRouter basename="/console">
      <Routes>
        {/* The public claimant page (docs/adr/0080): no session, so outside the session's provider. */}
        <Route path="claim/:slug" element={<ClaimantPage />} />
        <Route element={<SessionRoot />}>
          <Route path="accept-invite" element={<AcceptInvitePage />} />
          <Route path="sign-in" element={<SignInPage />} />
          <Route path="forgot-password" element={<ForgotPasswordPage />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          <Route element={<SignedInLayout />}>
            <Route index element={<Home />} />
            <Route path="calls" element={<DeveloperPage page={<CallsPage />} />} />
            <Route path="calls/:id" element={<DeveloperPage page={<CallPage />} />} />
            <Route path="numbers" element={<DeveloperPage page={<NumbersPage />} />} />
            <Route path="numbers/:id" element={<DeveloperPage page={<NumberPage />} />} />
            <Route path="keys" element={<DeveloperPage page={<KeysPage />} />} />
            <Route path="money" element={<DeveloperPage page={<MoneyPage />} />} />
            <Route path="team" element={<DeveloperPage page={<TeamPage />} />} />
            <Route path="data" element={<DeveloperPage page={<DataSettingsPage />} />} />
            <Route path="lostfound" element={<DeskItemsPage />} />
            <Route path="lostfound/items/:id" element={<DeskItemPage />} />
            <Route path="lostfound/claims" element={<DeskClaimsPage />} />
            <Route path="lostfound/claims/:id" element={<DeskClaimPage />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Route>
      </Routes>
    </BrowserRouter>
  );
}

function SessionRoot() {
  return (
    <SessionProvider>
      <Outlet />
    </SessionProvider>
  );
}

const NAV: { to: string; label: string; action: Action }[] = [
  { to: '/calls', label: 'Calls', action: 'see_developer_pages' },
  { to: '/numbers', label: 'Numbers', action: 'see_developer_pages' },
  { to: '/keys', label: 'API keys', action: 'see_developer_pages' },
  { to: '/money', label: 'Billing', action: 'see_developer_pages' },
  { to: '/team', label: 'Team', action: 'see_developer_pages' },
  { to: '/data', label: 'Data & retention', action: 'see_developer_pages' },
  { to: '/lostfound', label: 'Lost & found', action: 'read_desk' },
];

/** Where "/" leads: staff to their desk, everyone else to the calls. */
function Home() {
  const { can } = useSignedIn();
  return <Navigate to={can('see_developer_pages') ? '/calls' : '/lostfound'} replace />;
}

/** A page of the developer console: staff are sent to their desk (the server would refuse them anyway). */
function DeveloperPage({ page }: { page: ReactNode }) {
  const { can } = useSignedIn();
  return can('see_developer_pages') ? page : <Navigate to="/lostfound" replace />;
}

/** Moves focus to the page's heading after a navigation, so screen readers and keyboards start at the top. */
function useFocusOnNavigate() {
  const location = useLocation();
  // The path the layout was mounted at: not a navigation, even when the layout mounts again there (it does once the
  // session has loaded), so a fresh page keeps the browser's own start and the first Tab reaches the skip link.
  const mountedAt = useRef(location.pathname);
  const navigated = useRef(false);
  useEffect(() => {
    if (!navigated.current && location.pathname === mountedAt.current) return;
    navigated.current = true;
    const timer = window.setTimeout(
      () => document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: false }),
      50,
    );
    return () => window.clearTimeout(timer);
  }, [location.pathname]);
}

/**
 * Reads the session again after each navigation: an owner may have changed this user's role (docs/adr/0066), and the
 * pages then offer what the server now allows. The first path is not a navigation (the session was just read).
 */
function useSessionOnNavigate(refresh: () => void) {
  const location = useLocation();
  const latest = useRef(refresh);
  latest.current = refresh;
  const mountedAt = useRef(location.pathname);
  useEffect(() => {
    if (location.pathname === mountedAt.current) return;
    mountedAt.current = '';
    latest.current();
  }, [location.pathname]);
}

/**
 * The header's "Test data" switch (docs/adr/0087): the session then reads and changes the account's test twin. A
 * detail page (a number, a call) belongs to one mode, so switching there goes to its list.
 */
function ModeToggle() {
  const { session, setMode } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  if (!session) return null;
  const testing = session.mode === 'test';
  const toggle = async () => {
    setBusy(true);
    setFailure(undefined);
    try {
      await setMode(testing ? 'live' : 'test');
      const [section, detail] = location.pathname.split('/').filter(Boolean);
      if (detail !== undefined && section !== 'lostfound') void navigate(`/${section}`, { replace: true });
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <label className={testing ? 'mode-toggle mode-toggle--test' : 'mode-toggle'} title={failure}>
      <input
        type="checkbox"
        role="switch"
        checked={testing}
        disabled={busy}
        onChange={() => void toggle()}
        data-testid="mode-toggle"
      />
      <span>Test data</span>
      {failure ? (
        <span className="mode-toggle-error" role="alert">
          {failure}
        </span>
      ) : null}
    </label>
  );
}

function SignedInLayout() {
  const { status, session, error, signOut, refresh } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [signOutError, setSignOutError] = useState<string>();
  useFocusOnNavigate();
  useSessionOnNavigate(refresh);

  if (status === 'loading') {
    return (
      <main id="main" className="centered">
        <p role="status">Loading the console…</p>
      </main>
    );
  }
  if (status === 'unreachable') {
    return (
      <main id="main" className="centered">
        <h1>Switchboard console</h1>
        <Notice tone="error">{error ?? 'The console could not reach the server.'}</Notice>
        <Button variant="primary" onClick={refresh}>
          Try again
        </Button>
      </main>
    );
  }
  if (status === 'signed-out' || !session) {
    return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }

  const leave = async (everywhere: boolean) => {
    setSignOutError(undefined);
    try {
      await signOut(everywhere);
      void navigate('/sign-in', { replace: true });
    } catch (failure) {
      setSignOutError(messageOf(failure));
    }
  };

  return (
    <div className={session.mode === 'test' ? 'shell shell--test' : 'shell'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">Switchboard</span>
          <span className="brand-account" data-testid="account-name">
            {session.account.name}
          </span>
        </div>
        <div className="user">
          {roleCan(session.user.role, 'see_developer_pages') ? <ModeToggle /> : null}
          <span className="user-email">{session.user.email}</span>
          <span className="badge badge--neutral" data-testid="user-role">
            {session.user.role}
          </span>
          <details className="user-menu">
            <summary>Account</summary>
            <div className="user-menu-panel">
              <p className="user-menu-who">
                Signed in as <strong>{session.user.email}</strong> ({session.user.role}) to {session.account.name}.
              </p>
              <Button variant="secondary" onClick={() => void leave(false)}>
                Sign out
              </Button>
              <Button variant="danger" onClick={() => void leave(true)}>
                Sign out everywhere
              </Button>
              <p className="hint">“Everywhere” ends every session of yours, on every device.</p>
            </div>
          </details>
        </div>
      </header>
      {session.mode === 'test' ? (
        <div className="test-banner" role="status" data-testid="test-banner">
          <strong>Test data:</strong> nothing here is billed or real.
        </div>
      ) : null}
      <nav className="sidenav" aria-label="Console">
        <ul>
          {NAV.filter((item) => roleCan(session.user.role, item.action)).map((item) => (
            <li key={item.to}>
              <NavLink to={item.to}>{item.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        {signOutError ? <Notice tone="error">{signOutError}</Notice> : null}
        {/* Keyed by the mode: a switch mounts the page again, which reads the chosen data. */}
        <Suspense key={session.mode} fallback={<p role="status">Loading…</p>}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

function NotFound() {
  return (
    <section>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        Nothing lives at this address. <NavLink to="/">Go to the console's start</NavLink>.
      </p>
    </section>
  );
}
