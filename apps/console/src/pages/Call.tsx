import { Link, useParams } from 'react-router';
import type {
  CallAnalysisView,
  CallSentiment,
  CallView,
  CustomAnalysisValue,
  TranscriptView,
} from '@switchboard/contracts';
import { API_BASE, ApiError, get } from '../api';
import { Empty, Ident, LoadError, Loading, PageHeader, StatusBadge, useLoad } from '../components/ui';
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

      <AnalysisPanel analysis={c.analysis} numberId={c.number_id} />

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

const SENTIMENT_TEXT: Record<CallSentiment, string> = {
  positive: 'Positive',
  neutral: 'Neutral',
  negative: 'Negative',
  unknown: 'Not given',
};
const SENTIMENT_TONE: Record<CallSentiment, string> = {
  positive: 'good',
  neutral: 'neutral',
  negative: 'bad',
  unknown: 'neutral',
};

/** A custom field's value as people read it: yes/no, a number as written, text as it is. */
function customText(value: CustomAnalysisValue): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/**
 * What the agent concluded after the call (`analysis`): its summary, the caller's sentiment, whether the call
 * succeeded, and the values of the number's own analysis fields, each in its place even when the agent gave none.
 */
function AnalysisPanel({ analysis, numberId }: { analysis: CallAnalysisView | undefined; numberId: string }) {
  // A call the agent said nothing about has the empty analysis; so does an answer from before analyses existed.
  const summary = analysis?.summary ?? null;
  const sentiment = analysis?.sentiment ?? 'unknown';
  const successful = analysis?.successful ?? null;
  // By name: the API's object keeps no declared order (PostgreSQL's jsonb orders keys shortest first).
  const custom = Object.entries(analysis?.custom ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const nothing = summary === null && sentiment === 'unknown' && successful === null && custom.length === 0;
  const settings = <Link to={`/numbers/${encodeURIComponent(numberId)}`}>the number's agent settings</Link>;
  return (
    <section className="card" aria-labelledby="analysis-title" data-testid="call-analysis">
      <h2 id="analysis-title">Analysis</h2>
      {nothing ? (
        <>
          <Empty>The agent gave no analysis of this call.</Empty>
          <p className="hint analysis-fields">
            After each call the agent gives a summary, the caller's sentiment, whether the call succeeded, and the
            fields declared in {settings}.
          </p>
        </>
      ) : (
        <>
          {summary !== null ? (
            <p className="analysis-summary" data-testid="analysis-summary">
              {summary}
            </p>
          ) : (
            <p className="muted analysis-summary">The agent gave no summary.</p>
          )}
          <dl className="facts facts--row">
            <div>
              <dt>Sentiment</dt>
              <dd>
                <span className={`badge badge--${SENTIMENT_TONE[sentiment]}`}>{SENTIMENT_TEXT[sentiment]}</span>
              </dd>
            </div>
            <div>
              <dt>Successful</dt>
              <dd>{successful === null ? 'Not judged' : successful ? 'Yes' : 'No'}</dd>
            </div>
          </dl>
          <h3 className="analysis-fields">Custom fields</h3>
          {custom.length > 0 ? (
            <dl className="facts" data-testid="analysis-custom">
              {custom.map(([name, value]) => (
                <div key={name}>
                  <dt>
                    <Ident>{name}</Ident>
                  </dt>
                  <dd>{customText(value)}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="hint">No values for this call. The fields the agent fills in are declared in {settings}.</p>
          )}
        </>
      )}
    </section>
  );
}
