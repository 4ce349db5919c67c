// The calls page's "Live now": the account's calls in progress, their transcripts growing turn by turn, from the
// console's live stream (docs/live-calls.md). What to show is live-calls.ts's (a reducer, unit-tested); this file
// holds the EventSource, the clock and the markup.
import { useEffect, useLayoutEffect, useReducer, useRef } from 'react';
import { Link } from 'react-router';
import { api, apiUrl } from '../api';
import { speaker } from '../format';
import {
  LIVE_CALLS_PATH,
  LIVE_EVENT_TYPES,
  initialLiveCalls,
  liveActionOf,
  liveCallStateText,
  liveCallsReducer,
  reopenDelayMs,
  type LiveCall,
  type LiveCallsState,
} from '../live-calls';

/** After the list is told to refresh, more changes this soon join the same reload (a replay brings several). */
const LIST_RELOAD_DEBOUNCE_MS = 300;

/**
 * The stream and the clock as state. EventSource reconnects by itself after a dropped stream and resends
 * Last-Event-ID, so nothing is missed; it gives up only when a reconnection is refused (503 while the bus is away, 429
 * at the account's cap, 401 once signed out), and then a new one is opened a while later, after checking the session
 * (a 401 there takes the page to sign-in, api.ts).
 */
function useLiveCalls(): LiveCallsState {
  const [state, dispatch] = useReducer(liveCallsReducer, Date.now(), initialLiveCalls);
  useEffect(() => {
    let stopped = false;
    let source: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let refusals = 0;
    const connect = () => {
      if (stopped) return;
      const stream = new EventSource(apiUrl(LIVE_CALLS_PATH));
      source = stream;
      let fresh = true;
      stream.addEventListener('open', () => {
        dispatch({ type: 'open', fresh });
        fresh = false;
        refusals = 0;
      });
      for (const type of LIVE_EVENT_TYPES)
        stream.addEventListener(type, (event: MessageEvent<string>) => {
          const action = liveActionOf(type, event.data, Date.now());
          if (action) dispatch(action);
        });
      stream.addEventListener('error', () => {
        dispatch({ type: 'down' });
        if (stream.readyState !== EventSource.CLOSED) return;
        stream.close();
        reopen = setTimeout(
          () => void api.GET('/console/api/session').then(connect, connect),
          reopenDelayMs(refusals++),
        );
      });
    };
    connect();
    const clock = setInterval(() => dispatch({ type: 'tick', now: Date.now() }), 1_000);
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(reopen);
      clearInterval(clock);
    };
  }, []);
  return state;
}

export function LiveNow({
  phoneOf,
  onListChanged,
}: {
  /** A number's phone number by its id (the stream names the number by id). */
  phoneOf: (numberId: string) => string | undefined;
  /** A call started or ended: the page's list and chart read again. */
  onListChanged: () => void;
}) {
  const { calls, connection, everOpen, now, listVersion } = useLiveCalls();
  const listChanged = useRef(onListChanged);
  listChanged.current = onListChanged;
  useEffect(() => {
    if (listVersion === 0) return;
    const timer = setTimeout(() => listChanged.current(), LIST_RELOAD_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [listVersion]);
  const inProgress = calls.filter((call) => !call.ended).length;

  return (
    <section className="card live-now" aria-labelledby="live-now-title" data-testid="live-now">
      <div className="card-heading live-now-heading">
        <h2 id="live-now-title">
          <span className={`live-dot${inProgress > 0 ? ' live-dot--on' : ''}`} aria-hidden="true" />
          <span>
            Live now
            {inProgress > 0 ? <span className="live-count"> · {inProgress} in progress</span> : null}
          </span>
        </h2>
        {connection === 'down' ? (
          <p className="live-reconnecting" role="status" data-testid="live-reconnecting">
            Reconnecting…
          </p>
        ) : null}
      </div>
      {calls.length === 0 ? (
        <p className="live-empty" data-testid="live-empty">
          {everOpen ? 'No calls in progress. New calls appear here as they start.' : 'Connecting…'}
        </p>
      ) : (
        <ul className="live-calls">
          {calls.map((call) => (
            <LiveCallCard key={call.id} call={call} now={now} phone={phoneOf(call.numberId)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function LiveCallCard({ call, now, phone }: { call: LiveCall; now: number; phone: string | undefined }) {
  const transcript = useRef<HTMLOListElement>(null);
  // Follows the newest turn, unless the reader scrolled up to read an earlier one.
  const following = useRef(true);
  useLayoutEffect(() => {
    const list = transcript.current;
    if (list && following.current) list.scrollTop = list.scrollHeight;
  }, [call.turns.length]);
  const ended = call.ended;

  return (
    <li className={`live-call${ended ? ' live-call--ended' : ''}`} data-call-id={call.id} data-testid="live-call">
      <div className="live-call-head">
        <p className="live-call-who">
          <span className="live-call-caller">{call.caller}</span>
          <span className="live-call-number"> to {phone ?? 'one of your numbers'}</span>
        </p>
        <div className="live-call-state">
          {ended ? null : (
            <p className="live-call-clock" title={`Started ${new Date(call.startedAt).toLocaleTimeString()}`}>
              {liveCallStateText(call, now)}
            </p>
          )}
          {/* Always there, so its text is announced when the call ends. */}
          <p className="live-call-end" role="status" data-testid="live-call-end">
            {ended ? (
              <>
                {liveCallStateText(call, now)}{' '}
                <Link to={`/calls/${encodeURIComponent(call.id)}`}>
                  View call<span className="visually-hidden"> from {call.caller}</span>
                </Link>
              </>
            ) : null}
          </p>
        </div>
      </div>
      {/* Neutral words: an account that keeps no transcripts (metadata_only) has calls with no turns at all. */}
      {call.turns.length === 0 && !ended ? <p className="hint live-call-quiet">No transcript yet.</p> : null}
      {/* Rendered while empty too: a live region announces what is added to it, not a region that appears. */}
      <ol
        ref={transcript}
        className="conversation live-transcript"
        aria-live="polite"
        aria-label={`Transcript of the call from ${call.caller}`}
        // Scrolls once long: focusable so a keyboard can scroll it too.
        tabIndex={call.turns.length > 0 ? 0 : undefined}
        onScroll={(event) => {
          const list = event.currentTarget;
          following.current = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
        }}
        data-testid="live-transcript"
      >
        {call.turns.map((turn) => (
          <li key={turn.position} className={`turn turn--${turn.role === 'agent' ? 'agent' : 'caller'}`}>
            <span className="turn-speaker">{speaker(turn.role)}</span>
            <p className="turn-text">{turn.text}</p>
          </li>
        ))}
      </ol>
    </li>
  );
}
