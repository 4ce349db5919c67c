import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { CallAnalysisView, CallDataDeletion, CallSentiment, CustomAnalysisValue } from '@switchboard/contracts';
import { api, apiUrl, ApiError } from '../api';
import { deletingUsers, deletionText, type KnownPeople } from '../call-data';
import {
  ConfirmButton,
  Empty,
  Ident,
  LoadError,
  Loading,
  Notice,
  PageHeader,
  PageLoadError,
  StatusBadge,
  useLoad,
  Fact,
} from '../components/ui';
import { formatDuration, formatTime, humanize, speaker } from '../format';
import { useSignedIn } from '../session';

export function CallPage() {
  const { id = '' } = useParams();
  const { can, user } = useSignedIn();
  const mayDelete = can('delete_call_data');
  const call = useLoad(() => api.GET('/console/api/calls/{call_id}', { params: { path: { call_id: id } } }), [id]);
  const transcript = useLoad(async () => {
    try {
      return await api.GET('/console/api/calls/{call_id}/transcript', { params: { path: { call_id: id } } });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }, [id]);
  // Who deleted the recording or transcript, by e-mail address when they are a member the team list names (the
  // user's own deletions need no look-up; without the list, a member is named by id).
  const others = deletingUsers([call.data?.recording_deletion, call.data?.transcript_deletion]).filter(
    (userId) => userId !== user.id,
  );
  const members = useLoad(
    () => (others.length ? api.GET('/console/api/users').catch(() => undefined) : Promise.resolve(undefined)),
    [others.join(',')],
  );
  const people: KnownPeople = {
    me: user.id,
    emails: new Map((members.data?.data ?? []).map((member) => [member.id, member.email])),
  };
  // What was just deleted, for this call only (the page stays mounted when it moves to another call).
  const [deleted, setDeleted] = useState<{ id: string; text: string }>();

  /** Deletes the recording or the transcript (204, or 202 while storage confirms: both done), then reads the call again. */
  const deleteData = async (what: 'recording' | 'transcript') => {
    setDeleted(undefined);
    const path =
      what === 'recording' ? '/console/api/calls/{call_id}/recording' : '/console/api/calls/{call_id}/transcript';
    await api.DELETE(path, { params: { path: { call_id: id } } });
    setDeleted({
      id,
      text: what === 'recording' ? 'The recording was deleted.' : 'The transcript and the summary were deleted.',
    });
    call.reload();
    transcript.reload();
  };

  if (call.error) {
    return (
      <PageLoadError title="Call" error={call.error} retry={call.reload} back="/calls" backLabel="Back to calls" />
    );
  }
  if (!call.data) return <Loading what="the call" />;
  const c = call.data;
  const recording = apiUrl('/console/api/calls/{call_id}/recording', { path: { call_id: c.id } });

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
        <Fact label="Duration">{formatDuration(c.duration_sec)}</Fact>
        <Fact label="Outcome">{humanize(c.outcome)}</Fact>
        <Fact label="Direction">{humanize(c.direction)}</Fact>
        <div>
          <dt>Call ID</dt>
          <dd>
            <code>{c.id}</code>
          </dd>
        </div>
      </dl>

      {deleted?.id === id ? <Notice tone="success">{deleted.text}</Notice> : null}

      <AnalysisPanel analysis={c.analysis} numberId={c.number_id} transcriptDeletion={c.transcript_deletion} />

      <section className="card" aria-labelledby="recording-title" data-testid="call-recording">
        <div className="card-heading">
          <h2 id="recording-title">Recording</h2>
          {mayDelete && c.has_recording && !c.recording_deletion ? (
            <ConfirmButton
              label="Delete recording"
              title="Delete this call's recording?"
              body={
                <p>
                  The recording is deleted for good: nobody can play or download it again, in the console or through the
                  API. The call&apos;s details, transcript and analysis stay.
                </p>
              }
              confirmLabel="Yes, delete"
              onConfirm={() => deleteData('recording')}
            />
          ) : null}
        </div>
        {c.recording_deletion ? (
          <DeletionNote what="Recording" deletion={c.recording_deletion} people={people} />
        ) : c.has_recording ? (
          // Byte ranges through the session cookie: the browser asks for what it plays, seeking included.
          <audio
            controls
            preload="metadata"
            src={recording}
            className="player"
            aria-label={`Recording of the call from ${c.caller}`}
          >
            <a href={recording}>Download the recording</a>
          </audio>
        ) : (
          <Empty>This call was not recorded.</Empty>
        )}
      </section>

      <section className="card" aria-labelledby="transcript-title" data-testid="call-transcript">
        <div className="card-heading">
          <h2 id="transcript-title">Transcript</h2>
          {mayDelete && (c.has_transcript || c.analysis?.summary) && !c.transcript_deletion ? (
            <ConfirmButton
              label="Delete transcript"
              title="Delete this call's transcript?"
              body={
                <p>
                  The transcript and the agent&apos;s summary are deleted for good, and the call is no longer found by
                  what was said. The call&apos;s details, recording and the rest of its analysis stay.
                </p>
              }
              confirmLabel="Yes, delete"
              onConfirm={() => deleteData('transcript')}
            />
          ) : null}
        </div>
        {c.transcript_deletion ? (
          <DeletionNote what="Transcript" deletion={c.transcript_deletion} people={people} />
        ) : (
          <>
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
          </>
        )}
      </section>
    </section>
  );
}

/** Where a recording or transcript was deleted: when, and by whom (the retention policy, an API key, a person). */
function DeletionNote({
  what,
  deletion,
  people,
}: {
  what: 'Recording' | 'Transcript';
  deletion: CallDataDeletion;
  people: KnownPeople;
}) {
  return (
    <p className="deletion-note" data-testid={`${what.toLowerCase()}-deletion`}>
      {deletionText(what, deletion, people)}
    </p>
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
function AnalysisPanel({
  analysis,
  numberId,
  transcriptDeletion,
}: {
  analysis: CallAnalysisView | undefined;
  numberId: string;
  transcriptDeletion: CallDataDeletion | null | undefined;
}) {
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
            <p className="muted analysis-summary">
              {transcriptDeletion ? 'The summary was deleted with the transcript.' : 'The agent gave no summary.'}
            </p>
          )}
          <dl className="facts facts--row">
            <div>
              <dt>Sentiment</dt>
              <dd>
                <span className={`badge badge--${SENTIMENT_TONE[sentiment]}`}>{SENTIMENT_TEXT[sentiment]}</span>
              </dd>
            </div>
            <Fact label="Successful">{successful === null ? 'Not judged' : successful ? 'Yes' : 'No'}</Fact>
          </dl>
          <h3 className="analysis-fields">Custom fields</h3>
          {custom.length > 0 ? (
            <dl className="facts" data-testid="analysis-custom">
              {custom.map(([name, value]) => (
                <Fact key={name} label={<Ident>{name}</Ident>}>
                  {customText(value)}
                </Fact>
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
