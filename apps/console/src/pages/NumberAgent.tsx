import { useState, type FormEvent } from 'react';
import type { AgentSettingsView, AgentStatus } from '@switchboard/contracts';
import { get, put } from '../api';
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

/**
 * The AI agent that answers the number (docs/adr/0085): what it says first and how it behaves. Empty is the default.
 * Owners and developers change it; the rest read.
 */
export function NumberAgent({ numberId, editable }: { numberId: string; editable: boolean }) {
  const path = `/numbers/${encodeURIComponent(numberId)}/agent`;
  const agent = useLoad(() => get<AgentSettingsView & { default_greeting: string }>(path), [path]);
  const [draft, setDraft] = useDraft(
    agent.data,
    (settings) => ({ greeting: settings.greeting ?? '', instructions: settings.instructions ?? '' }),
    { greeting: '', instructions: '' },
  );
  const { greeting, instructions } = draft;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>();
  const [saved, setSaved] = useState<string>();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    setSaved(undefined);
    try {
      await put<AgentSettingsView>(path, {
        greeting: greeting.trim() || null,
        instructions: instructions.trim() || null,
      });
      setSaved('Saved. The agent gets the new settings within seconds.');
      agent.reload();
    } catch (error) {
      setFailure(failureOf(error, ['greeting', 'instructions']));
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
