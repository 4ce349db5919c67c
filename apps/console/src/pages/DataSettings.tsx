import { useId, useState, type FormEvent } from 'react';
import type { DataSettingsView, StorageMode } from '@switchboard/contracts';
import { api } from '../api';
import {
  MAX_RETENTION_DAYS,
  MIN_RETENTION_DAYS,
  STORAGE_MODE_CHOICES,
  dataSettingsText,
  retentionDaysOf,
  retentionDraftOf,
  type RetentionDraft,
} from '../call-data';
import {
  Button,
  LoadError,
  Loading,
  Notice,
  PageHeader,
  fieldFailure,
  useDraft,
  useFormSend,
  useLoad,
} from '../components/ui';
import { roleReason, useSignedIn } from '../session';

const FIELDS = ['storage_mode', 'recordings_days', 'transcripts_days'] as const;

/**
 * `/data`: what the account keeps of its calls (the storage mode) and for how long (a retention period for recordings,
 * one for transcripts and summaries). Every reading role sees them; owners change them (the server refuses others).
 */
export function DataSettingsPage() {
  const { can, role } = useSignedIn();
  const settings = useLoad(() => api.GET('/console/api/settings/data'), []);
  return (
    <section>
      <PageHeader
        title="Data & retention"
        description="What Switchboard keeps of your calls, and for how long. Deleting a single call's recording or transcript is on the call's page."
      />
      {settings.error ? <LoadError error={settings.error} retry={settings.reload} /> : null}
      {!settings.data && settings.loading ? <Loading what="the data settings" /> : null}
      {settings.data ? (
        <DataSettingsForm
          settings={settings.data}
          mayChange={can('manage_data')}
          reason={roleReason(role, 'manage_data')}
          onSaved={(saved) => settings.replace(() => saved)}
        />
      ) : null}
    </section>
  );
}

interface Draft {
  storage_mode: StorageMode;
  recordings: RetentionDraft;
  transcripts: RetentionDraft;
}

function DataSettingsForm({
  settings,
  mayChange,
  reason,
  onSaved,
}: {
  settings: DataSettingsView;
  mayChange: boolean;
  reason: string;
  onSaved: (saved: DataSettingsView) => void;
}) {
  const [draft, setDraft] = useDraft<DataSettingsView, Draft>(
    settings,
    (current, previous) => ({
      storage_mode: current.storage_mode,
      recordings: retentionDraftOf(current.recordings_days, previous.recordings),
      transcripts: retentionDraftOf(current.transcripts_days, previous.transcripts),
    }),
    { storage_mode: 'everything', recordings: { forever: true, days: '' }, transcripts: { forever: true, days: '' } },
  );
  const { busy, failure, setFailure, send } = useFormSend(FIELDS);
  const [saved, setSaved] = useState<DataSettingsView>();

  const change = (update: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...update }));
    setSaved(undefined);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    setSaved(undefined);
    const recordings = retentionDaysOf(draft.recordings);
    const transcripts = retentionDaysOf(draft.transcripts);
    const wholeDays = `Type a whole number of days (${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}), or choose Keep forever.`;
    if (recordings === undefined) return setFailure(fieldFailure('recordings_days', wholeDays));
    if (transcripts === undefined) return setFailure(fieldFailure('transcripts_days', wholeDays));
    await send(async () => {
      const answer = await api.PATCH('/console/api/settings/data', {
        body: { storage_mode: draft.storage_mode, recordings_days: recordings, transcripts_days: transcripts },
      });
      onSaved(answer);
      setSaved(answer);
    });
  };

  const keepsNoRecording = draft.storage_mode !== 'everything';
  return (
    <form
      className="card data-settings"
      onSubmit={(event) => void save(event)}
      noValidate
      aria-labelledby="data-settings-title"
      data-testid="data-settings"
    >
      <h2 id="data-settings-title">Call data</h2>
      {saved ? (
        <Notice tone="success" title="Saved.">
          {dataSettingsText(saved)}
        </Notice>
      ) : (
        <p className="hint data-settings-now" data-testid="data-settings-now">
          Now: {dataSettingsText(settings)}
        </p>
      )}
      {!mayChange ? <Notice tone="info">{reason}</Notice> : null}
      {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}

      <fieldset
        className={`field${failure?.fields.storage_mode ? ' field--invalid' : ''}`}
        aria-describedby="storage-mode-hint"
      >
        <legend>What to keep of each call</legend>
        <div className="candidates storage-modes">
          {STORAGE_MODE_CHOICES.map((choice) => (
            <label
              key={choice.value}
              className={`candidate${draft.storage_mode === choice.value ? ' candidate--chosen' : ''}`}
            >
              <input
                type="radio"
                name="storage_mode"
                value={choice.value}
                checked={draft.storage_mode === choice.value}
                disabled={!mayChange}
                onChange={() => change({ storage_mode: choice.value })}
              />
              <span className="candidate-body">
                <span className="candidate-title">{choice.label}</span>
                <span className="muted">{choice.explanation}</span>
              </span>
            </label>
          ))}
        </div>
        <p className="hint" id="storage-mode-hint">
          Applies to calls from now on; what is already kept stays until it is deleted.
        </p>
        {failure?.fields.storage_mode ? <p className="field-error">{failure.fields.storage_mode}</p> : null}
      </fieldset>

      <div className="grid-2">
        <RetentionField
          legend="Keep recordings"
          name="recordings_days"
          what="recordings"
          value={draft.recordings}
          onChange={(recordings) => change({ recordings })}
          disabled={!mayChange}
          error={failure?.fields.recordings_days}
          hint={
            keepsNoRecording
              ? 'This mode keeps no new recordings: the period applies to those already kept.'
              : "Counted from the call's start."
          }
        />
        <RetentionField
          legend="Keep transcripts and summaries"
          name="transcripts_days"
          what="transcripts and summaries"
          value={draft.transcripts}
          onChange={(transcripts) => change({ transcripts })}
          disabled={!mayChange}
          error={failure?.fields.transcripts_days}
          hint="Counted from the call's start. The rest of the analysis stays."
        />
      </div>
      <p className="hint">
        A shorter period also applies to older calls: their data is deleted at the next retention sweep, within minutes.
        Deleted data cannot be brought back.
      </p>
      {mayChange ? (
        <div className="actions data-settings-actions">
          <Button type="submit" variant="primary" busy={busy}>
            Save data settings
          </Button>
        </div>
      ) : null}
    </form>
  );
}

/** A retention period: "Keep forever", or "Delete after" a number of days. */
function RetentionField(props: {
  legend: string;
  name: string;
  what: string;
  value: RetentionDraft;
  onChange: (value: RetentionDraft) => void;
  disabled: boolean;
  error?: string;
  hint: string;
}) {
  const id = useId();
  const { value, onChange } = props;
  return (
    <fieldset
      className={`field retention${props.error ? ' field--invalid' : ''}`}
      aria-describedby={`${id}-hint${props.error ? ` ${id}-error` : ''}`}
      data-testid={props.name}
    >
      <legend>{props.legend}</legend>
      <div className="retention-choices">
        <label className="choice">
          <input
            type="radio"
            name={`${props.name}-forever`}
            checked={value.forever}
            disabled={props.disabled}
            onChange={() => onChange({ ...value, forever: true })}
          />
          Keep forever
        </label>
        <label className="choice">
          <input
            type="radio"
            name={`${props.name}-forever`}
            checked={!value.forever}
            disabled={props.disabled}
            onChange={() => onChange({ ...value, forever: false })}
          />
          Delete after
        </label>
        <span className="retention-days">
          <label htmlFor={`${id}-days`} className="visually-hidden">
            Days to keep {props.what}
          </label>
          <input
            id={`${id}-days`}
            type="number"
            name={props.name}
            inputMode="numeric"
            min={MIN_RETENTION_DAYS}
            max={MAX_RETENTION_DAYS}
            step={1}
            value={value.days}
            placeholder={props.disabled || value.forever ? undefined : '90'}
            disabled={props.disabled || value.forever}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={`${id}-hint${props.error ? ` ${id}-error` : ''}`}
            onChange={(event) => onChange({ forever: false, days: event.target.value })}
          />
          <span aria-hidden="true">days</span>
        </span>
      </div>
      <p className="hint" id={`${id}-hint`}>
        {props.hint} {MIN_RETENTION_DAYS} to {MAX_RETENTION_DAYS} days.
      </p>
      {props.error ? (
        <p className="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
    </fieldset>
  );
}
