// Who is signed in, read once from GET /console/api/session-status, and what their role lets the page offer. The server
// decides (403 forbidden); the page only hides or disables what would be refused.
import type { ApiKeyMode, ConsoleRole, ConsoleSessionView } from '@switchboard/contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, ApiError, setCsrfToken, whenSignedOut } from './api';

export type Action =
  | 'manage_keys'
  | 'manage_numbers'
  | 'manage_money'
  | 'manage_team'
  | 'manage_data'
  | 'delete_call_data'
  | 'use_desk'
  | 'read_desk'
  | 'see_developer_pages';

const ALLOWED: Record<ConsoleRole, readonly Action[]> = {
  owner: [
    'manage_keys',
    'manage_numbers',
    'manage_money',
    'manage_team',
    'manage_data',
    'delete_call_data',
    'use_desk',
    'read_desk',
    'see_developer_pages',
  ],
  developer: ['manage_keys', 'manage_numbers', 'delete_call_data', 'use_desk', 'read_desk', 'see_developer_pages'],
  viewer: ['read_desk', 'see_developer_pages'],
  // Venue staff: the lost-and-found desk and nothing else (docs/adr/0080).
  staff: ['use_desk', 'read_desk'],
};

export function roleCan(role: ConsoleRole | undefined, action: Action): boolean {
  return role ? ALLOWED[role]?.includes(action) === true : false;
}

/** Why a control is disabled, for its title and the page's hint. */
export function roleReason(role: ConsoleRole | undefined, action: Action): string {
  const what = {
    manage_keys: 'manage API keys',
    manage_numbers: 'change numbers',
    manage_money: 'change billing settings',
    manage_team: 'manage the team',
    manage_data: 'change what is kept of calls and for how long',
    delete_call_data: "delete a call's recording or transcript",
    use_desk: 'change lost-and-found',
    read_desk: 'see lost-and-found',
    see_developer_pages: 'see this page',
  }[action];
  return `Your role (${role ?? 'none'}) cannot ${what}; ask an owner.`;
}

interface SessionState {
  status: 'loading' | 'signed-out' | 'signed-in' | 'unreachable';
  session?: ConsoleSessionView;
  error?: string;
  /** After sign-in or invite acceptance: the answer carries the session. */
  // Function properties, not methods: they are `this`-free closures that pages destructure from the hook.
  signedIn: (session: ConsoleSessionView) => void;
  signOut: (everywhere: boolean) => Promise<void>;
  /** Switches the session between live and test data (docs/adr/0087); the pages then read the chosen data. */
  setMode: (mode: ApiKeyMode) => Promise<void>;
  can: (action: Action) => boolean;
  refresh: () => void;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<SessionState['status']>('loading');
  const [session, setSession] = useState<ConsoleSessionView>();
  const [error, setError] = useState<string>();
  const [round, setRound] = useState(0);

  useEffect(() => {
    let current = true;
    // The probe answers 200 either way: a signed-out page then logs no 401 in the browser's console.
    api.GET('/console/api/session-status').then(
      (answer) => {
        if (!current) return;
        if (!answer.signed_in) {
          setStatus('signed-out');
          return;
        }
        const info: ConsoleSessionView = {
          user: answer.user,
          account: answer.account,
          csrf_token: answer.csrf_token,
          mode: answer.mode,
        };
        setCsrfToken(info.csrf_token);
        setSession(info);
        setStatus('signed-in');
      },
      (failure: unknown) => {
        if (!current) return;
        if (failure instanceof ApiError && failure.status === 401) {
          setStatus('signed-out');
        } else {
          setError(failure instanceof Error ? failure.message : String(failure));
          setStatus('unreachable');
        }
      },
    );
    return () => {
      current = false;
    };
  }, [round]);

  useEffect(() => {
    whenSignedOut(() => {
      setCsrfToken(undefined);
      setSession(undefined);
      setStatus('signed-out');
    });
  }, []);

  const signedIn = useCallback((answer: ConsoleSessionView) => {
    setCsrfToken(answer.csrf_token);
    setSession(answer);
    setStatus('signed-in');
  }, []);

  const signOut = useCallback(async (everywhere: boolean) => {
    await api.POST(everywhere ? '/console/api/sign-out-everywhere' : '/console/api/sign-out');
    setCsrfToken(undefined);
    setSession(undefined);
    setStatus('signed-out');
  }, []);

  const setMode = useCallback(async (mode: ApiKeyMode) => {
    const answer = await api.PUT('/console/api/session/mode', { body: { mode } });
    setCsrfToken(answer.csrf_token);
    setSession(answer);
  }, []);

  const value = useMemo<SessionState>(
    () => ({
      status,
      session,
      error,
      signedIn,
      signOut,
      setMode,
      can: (action) => roleCan(session?.user.role, action),
      refresh: () => setRound((n) => n + 1),
    }),
    [status, session, error, signedIn, signOut, setMode],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** The signed-in session (only inside the signed-in layout). */
export function useSignedIn(): ConsoleSessionView & { can: (action: Action) => boolean; role: ConsoleRole } {
  const state = useSession();
  if (!state.session) throw new Error('useSignedIn without a session');
  return { ...state.session, role: state.session.user.role, can: state.can };
}
