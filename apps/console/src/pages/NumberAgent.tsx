import { useId, useRef, useState, type FormEvent } from 'react';
import type { AgentSettingsView, AgentStatus } from '@switchboard/contracts';
import {
  ANALYSIS_FIELD_TYPES,
  ANALYSIS_TYPE_LABELS,
  MAX_ANALYSIS_FIELDS,
  analysisFieldProblems,
  draftsOf,
  fieldsBody,
  type AnalysisFieldDraft,
  type AnalysisFieldInput,
  type AnalysisFieldProblems,
} from '../analysis-fields';
import { api, ApiError, fieldsOf } from '../api';
import {
  Button,
  Field,
  LoadError,
  Loading,
  Notice,
  failureOf,
  useDraft,
  useLoad,
  type FormFailure,
} from '../components/ui';

const STATUS_TEXT: Record<AgentStatus, string> = {
  ready: 'The agent answering this number has these settings.',
  pending: 'On their way to the agent: calls may still hear the previous settings for a moment.',
  failed: 'The agent platform refused these settings. Change them and save again.',
};

const NO_PROBLEMS: AnalysisFieldProblems = { rows: {}, rest: [] };

interface AgentDraft {
  greeting: string;
  instructions: string;
  fields: AnalysisFieldDraft[];
}

/**
 * The AI agent that answers the number (docs/adr/0083): what it says first, how it behaves, and the fields it fills
 * in after each call (read back on each call's page). Empty is the default. Owners and developers change it; the rest
 * read.
 */
export function NumberAgent({ numberId, editable }: { numberId: string; editable: boolean }) {
  const agent = useLoad(
    () => api.GET('/console/api/numbers/{id}/agent', { params: { path: { id: numberId } } }),
    [numberId],
  );
  const [draft, setDraft] = useDraft<AgentSettingsView, AgentDraft>(
    agent.data,
    (settings) => ({
      greeting: settings.greeting ?? '',
      instructions: settings.instructions ?? '',
      fields: draftsOf(settings.analysis_fields),
    }),
    { greeting: '', instructions: '', fields: [] },
  );
  const { greeting, instructions, fields } = draft;
  // Keys of added rows: after any saved row's (a saved row's key is its place).
  const nextKey = useRef(1_000_000);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>();
  const [problems, setProblems] = useState<AnalysisFieldProblems>(NO_PROBLEMS);
  const [saved, setSaved] = useState<string>();

  const changeField = (index: number, input: AnalysisFieldInput, value: string) => {
    setDraft((current) => ({
      ...current,
      fields: current.fields.map((field, at) => (at === index ? { ...field, [input]: value } : field)),
    }));
    setProblems((current) => ({
      ...current,
      rows: { ...current.rows, [index]: { ...current.rows[index], [input]: undefined, field: undefined } },
    }));
    setSaved(undefined);
  };
  const addField = () => {
    setDraft((current) => ({
      ...current,
      fields: [...current.fields, { key: nextKey.current++, name: '', type: 'string', description: '', choices: '' }],
    }));
    setSaved(undefined);
  };
  const removeField = (index: number) => {
    setDraft((current) => ({ ...current, fields: current.fields.filter((_, at) => at !== index) }));
    // The rows after it move up: the server's words about them no longer point at the right row.
    setProblems((current) => ({ ...current, rows: {} }));
    setSaved(undefined);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    setProblems(NO_PROBLEMS);
    setSaved(undefined);
    try {
      await api.PUT('/console/api/numbers/{id}/agent', {
        params: { path: { id: numberId } },
        body: {
          greeting: greeting.trim() || null,
          instructions: instructions.trim() || null,
          analysis_fields: fieldsBody(fields),
        },
      });
      setSaved('Saved. The agent gets the new settings within seconds.');
      agent.reload();
    } catch (error) {
      setFailure(placeFailure(error, setProblems));
    } finally {
      setBusy(false);
    }
  };

  if (agent.error)
    return (
      <div className="card">
        <h2>Agent</h2>
        <LoadError error={agent.error} retry={agent.reload} />
      </div>
    );
  if (!agent.data) return <Loading what="the agent" />;

  return (
    <form className="card" onSubmit={(event) => void save(event)} noValidate aria-labelledby="agent-title">
      <h2 id="agent-title">Agent</h2>
      <p className="hint">
        The AI agent answers calls to this number. It transfers callers who ask for a person to the business phone.
      </p>
      {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
      {saved ? <Notice tone="success">{saved}</Notice> : null}
      <Field
        label="Greeting"
        name="greeting"
        value={greeting}
        onChange={(value) => {
          setDraft((current) => ({ ...current, greeting: value }));
          setSaved(undefined);
        }}
        disabled={!editable}
        maxLength={500}
        placeholder={agent.data.default_greeting}
        hint={`What the agent says when it answers. Left empty, it says: “${agent.data.default_greeting}”`}
        error={failure?.fields.greeting}
      />
      <Field
        label="Instructions"
        name="instructions"
        multiline
        value={instructions}
        onChange={(value) => {
          setDraft((current) => ({ ...current, instructions: value }));
          setSaved(undefined);
        }}
        disabled={!editable}
        maxLength={8000}
        placeholder="Opening hours, what you sell, what to do with orders..."
        hint="How the agent behaves: your business's facts and rules, in plain words. Empty: answer politely and take a message."
        error={failure?.fields.instructions}
      />

      <div className="analysis-editor" role="group" aria-labelledby="analysis-fields-title">
        <h3 id="analysis-fields-title">Analysis fields</h3>
        <p className="hint">
          What the agent fills in after each call, shown on the call's page (and in the API's{' '}
          <code>analysis.custom</code>), up to {MAX_ANALYSIS_FIELDS}. Each has a name in snake_case (a-z, 0-9 and _,
          starting with a letter) and a description that tells the agent what to put in it, in plain words.
        </p>
        {problems.list ? (
          <p className="field-error" data-testid="analysis-fields-error">
            {problems.list}
          </p>
        ) : null}
        {fields.length === 0 ? (
          <p className="empty">
            {editable
              ? 'No analysis fields: the agent gives only its summary, sentiment and success. Add one to have it note more, such as an order total.'
              : 'No analysis fields: the agent gives only its summary, sentiment and success.'}
          </p>
        ) : (
          <ol className="analysis-field-list">
            {fields.map((field, index) => (
              <AnalysisFieldRow
                key={field.key}
                index={index}
                field={field}
                editable={editable}
                problems={problems.rows[index]}
                onChange={(input, value) => changeField(index, input, value)}
                onRemove={() => removeField(index)}
              />
            ))}
          </ol>
        )}
        {editable ? (
          <div className="actions analysis-add">
            <Button onClick={addField} disabled={fields.length >= MAX_ANALYSIS_FIELDS}>
              Add field
            </Button>
            {fields.length >= MAX_ANALYSIS_FIELDS ? (
              <p className="hint">A number has at most {MAX_ANALYSIS_FIELDS} fields.</p>
            ) : null}
          </div>
        ) : null}
      </div>

      <p className="hint" data-testid="agent-status">
        {STATUS_TEXT[agent.data.status]}
      </p>
      {editable ? (
        <div className="actions">
          <Button type="submit" variant="primary" busy={busy}>
            Save agent
          </Button>
        </div>
      ) : null}
    </form>
  );
}

/**
 * A failed save: the problems the 400 names about the analysis fields go next to their rows (`setProblems`), those
 * about the greeting or instructions next to those, and the top of the form says what is left, or that it failed.
 */
function placeFailure(error: unknown, setProblems: (problems: AnalysisFieldProblems) => void): FormFailure {
  const own = ['greeting', 'instructions'];
  if (!(error instanceof ApiError) || error.status !== 400 || !error.serverMessage) return failureOf(error, own);
  const problems = analysisFieldProblems(error.serverMessage);
  const placed =
    Object.values(problems.rows).reduce((sum, row) => sum + Object.keys(row).length, 0) + (problems.list ? 1 : 0);
  if (placed === 0) return failureOf(error, own);
  setProblems(problems);
  const rest = problems.rest.join('; ');
  const others = rest ? failureOf(new ApiError(400, error.code, rest, fieldsOf({ message: rest })), own) : undefined;
  const summary = `Not saved: ${placed === 1 ? 'an analysis field needs' : 'analysis fields need'} a change, shown next to ${placed === 1 ? 'it' : 'them'}.`;
  return {
    fields: others?.fields ?? {},
    message: others?.message ? `${summary} ${others.message}` : summary,
  };
}

/** One declared field: its name, type, description and (for `enum`) its choices, with what the server said of each. */
function AnalysisFieldRow({
  index,
  field,
  editable,
  problems,
  onChange,
  onRemove,
}: {
  index: number;
  field: AnalysisFieldDraft;
  editable: boolean;
  problems: Partial<Record<AnalysisFieldInput | 'field', string>> | undefined;
  onChange: (input: AnalysisFieldInput, value: string) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const title = `Field ${index + 1}${field.name.trim() ? `: ${field.name.trim()}` : ''}`;
  return (
    <li className="analysis-field">
      <fieldset className="field" data-testid="analysis-field">
        <legend>{title}</legend>
        {problems?.field ? <p className="field-error">{problems.field}</p> : null}
        <div className="grid-2">
          <Field
            label="Name"
            name="analysis_field_name"
            value={field.name}
            onChange={(value) => onChange('name', value)}
            disabled={!editable}
            required
            maxLength={40}
            autoComplete="off"
            placeholder="order_total"
            error={problems?.name}
          />
          <div className={`field${problems?.type ? ' field--invalid' : ''}`}>
            <label htmlFor={`${id}-type`}>Type</label>
            <select
              id={`${id}-type`}
              name="analysis_field_type"
              value={field.type}
              disabled={!editable}
              aria-invalid={problems?.type ? true : undefined}
              aria-describedby={problems?.type ? `${id}-type-error` : undefined}
              onChange={(event) => onChange('type', event.target.value)}
            >
              {ANALYSIS_FIELD_TYPES.map((type) => (
                <option key={type} value={type}>
                  {ANALYSIS_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
            {problems?.type ? (
              <p className="field-error" id={`${id}-type-error`}>
                {problems.type}
              </p>
            ) : null}
          </div>
        </div>
        <Field
          label="Description"
          name="analysis_field_description"
          multiline
          value={field.description}
          onChange={(value) => onChange('description', value)}
          disabled={!editable}
          required
          maxLength={500}
          placeholder="The order total in US dollars, if the caller placed an order."
          error={problems?.description}
        />
        {field.type === 'enum' ? (
          <Field
            label="Choices"
            name="analysis_field_choices"
            multiline
            value={field.choices}
            onChange={(value) => onChange('choices', value)}
            disabled={!editable}
            required
            placeholder={'pickup\ndelivery'}
            hint="The values the agent may give: one per line, or separated by commas."
            error={problems?.choices}
          />
        ) : null}
        {editable ? (
          <div className="actions">
            <Button variant="quiet" onClick={onRemove} aria-label={`Remove ${title}`}>
              Remove field
            </Button>
          </div>
        ) : null}
      </fieldset>
    </li>
  );
}
