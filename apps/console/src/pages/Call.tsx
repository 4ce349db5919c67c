import { Link, useParams } from 'react-router';
import type { CallView, TranscriptView } from '@switchboard/contracts';
import { API_BASE, ApiError, get } from '../api';
import { Empty, LoadError, Loading, PageHeader, StatusBadge, useLoad } from '../components/ui';
import { formatDuration, formatTime, humanize } from '../format';

/** Who spoke, as people say it. */
function speaker(role: string): string {
  return role === 'agent' ? 'AI agent' : role === 'caller' ? 'Caller' : humanize(role);
}

export function CallPage() {
  const { id = '' } = useParams();
  const call = useLoad(() => get<CallView>(`/calls/${encodeURIComponent(id)}`), [id]);
  const transcript = useLoad(async () => {
    try {
      return await get<TranscriptView>(`/calls/${encodeURIComponent(id)}/transcript`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }, [id]);

  if (call.error) {
    return (
      <section>
        <PageHeader title="Call" />
        <LoadError error={call.error} retry={call.reload} />
        <p>
          <Link to="/calls">Back to calls</Link>
        </p>
      </section>
    );
  }
  if (!call.data) return <Loading what="the call" />;
  const c = call.data;

  return (
    <section>
      <p className="breadcrumb">
        <Link to="/calls">Calls</Link> <span aria-hidden="true">/</span>
      </p>
      <PageHeader
        title={`Call from ${c.caller}`}
        description={
          <>
            {formatTime(c.started_at)} to {c.phone_number}
          </>
        }
      >
        <StatusBadge status={c.status} />
      </PageHeader>

      <dl className="facts facts--row">
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(c.duration_sec)}</dd>
        </div>
        <div>
          <dt>Outcome</dt>
          <dd>{humanize(c.outcome)}</dd>
        </div>
        <div>
          <dt>Direction</dt>
          <dd>{humanize(c.direction)}</dd>
        </div>
        <div>
          <dt>Call ID</dt>
          <dd>
            <code>{c.id}</code>
          </dd>
        </div>
      </dl>

      <div className="card">
        <h2>Recording</h2>
        {c.has_recording ? (
          // Byte ranges through the session cookie: the browser asks for what it plays, seeking included.
          <audio
            controls
            preload="metadata"
            src={`${API_BASE}/calls/${encodeURIComponent(c.id)}/recording`}
            className="player"
            aria-label={`Recording of the call from ${c.caller}`}
          >
            <a href={`${API_BASE}/calls/${encodeURIComponent(c.id)}/recording`}>Download the recording</a>
          </audio>
        ) : (
          <Empty>This call was not recorded.</Empty>
        )}
      </div>

      <div className="card">
        <h2>Transcript</h2>
        {transcript.error ? <LoadError error={transcript.error} retry={transcript.reload} /> : null}
        {transcript.loading && !transcript.data ? <Loading what="the transcript" /> : null}
        {!transcript.loading && !transcript.error && (!transcript.data || transcript.data.turns.length === 0) ? (
          <Empty>This call has no transcript.</Empty>
        ) : null}
        {transcript.data && transcript.data.turns.length > 0 ? (
          <ol className="conversation" aria-label="Transcript" data-testid="transcript">
            {transcript.data.turns.map((turn, index) => (
              <li key={index} className={`turn turn--${turn.role === 'agent' ? 'agent' : 'caller'}`}>
                <span className="turn-speaker">{speaker(turn.role)}</span>
                <p className="turn-text">{turn.text}</p>
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </section>
  );
}
