// What an account keeps of its calls and for how long (docs/call-data.md), as the console shows it: the storage modes
// in words, a retention period's form value, and who deleted a call's recording or transcript. Pure functions,
// unit-tested (call-data.spec.ts).
import type { CallDataDeletion, DataSettingsView, StorageMode } from '@switchboard/contracts';
import { formatTime } from './format';

/** STORAGE_MODES of the contracts, each with a line saying what it keeps (the console takes their types only). */
export const STORAGE_MODE_CHOICES: readonly { value: StorageMode; label: string; explanation: string }[] = [
  {
    value: 'everything',
    label: 'Everything',
    explanation: 'The recording, the transcript and the summary, as the call went.',
  },
  {
    value: 'no_pii',
    label: 'No personal data',
    explanation:
      'Transcripts and summaries with phone numbers, e-mail addresses, card numbers, SSNs and street addresses redacted; no recording.',
  },
  {
    value: 'metadata_only',
    label: 'Details only',
    explanation: "The call's details and analysis flags: no transcript, no summary, no recording.",
  },
];

export function storageModeLabel(mode: StorageMode): string {
  return STORAGE_MODE_CHOICES.find((choice) => choice.value === mode)?.label ?? mode;
}

/** MIN_RETENTION_DAYS and MAX_RETENTION_DAYS of the contracts. */
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 730;

/** A retention period in the form: kept forever, or the days as typed (kept while "forever" is chosen). */
export interface RetentionDraft {
  forever: boolean;
  days: string;
}

/** The form's value for a period the server answered; "forever" keeps the days typed before, for switching back. */
export function retentionDraftOf(days: number | null, previous?: RetentionDraft): RetentionDraft {
  return days === null ? { forever: true, days: previous?.days ?? '' } : { forever: false, days: String(days) };
}

/**
 * The period to send: null for forever, the whole number of days typed, or undefined when what was typed is not a
 * whole number (the form says so; the range, 1 to 730, the server checks and names).
 */
export function retentionDaysOf(draft: RetentionDraft): number | null | undefined {
  if (draft.forever) return null;
  const typed = draft.days.trim();
  return /^\d{1,9}$/.test(typed) ? Number(typed) : undefined;
}

/** `kept forever`, `deleted after 1 day`, `deleted after 90 days`. */
export function retentionText(days: number | null): string {
  if (days === null) return 'kept forever';
  return `deleted after ${days} ${days === 1 ? 'day' : 'days'}`;
}

/** The settings in one sentence, as saved: "Storing everything; recordings deleted after 30 days, transcripts …". */
export function dataSettingsText(settings: DataSettingsView): string {
  return (
    `Storing: ${storageModeLabel(settings.storage_mode).toLowerCase()}. ` +
    `Recordings ${retentionText(settings.recordings_days)}; ` +
    `transcripts and summaries ${retentionText(settings.transcripts_days)}.`
  );
}

/** Who the console knows by id: the signed-in user, and the account's members' e-mail addresses. */
export interface KnownPeople {
  me?: string;
  emails?: ReadonlyMap<string, string>;
}

/**
 * Who deleted, in words: `retention` is the account's retention policy, `key:<id>` an API key, `user:<id>` a console
 * user (you, or a member by e-mail address when the console knows them, else by id).
 */
export function deletedByText(deletedBy: string, people: KnownPeople = {}): string {
  if (deletedBy === 'retention') return 'the retention policy';
  if (deletedBy.startsWith('key:')) return `API key ${deletedBy.slice(4)}`;
  if (deletedBy.startsWith('user:')) {
    const id = deletedBy.slice(5);
    if (id === people.me) return 'you';
    return people.emails?.get(id) ?? `a console user (${id})`;
  }
  return deletedBy;
}

/** The console user ids among the deletions' authors (to look up their e-mail addresses), sorted, once each. */
export function deletingUsers(deletions: readonly (CallDataDeletion | null | undefined)[]): string[] {
  const ids = deletions
    .map((deletion) => deletion?.deleted_by ?? '')
    .filter((by) => by.startsWith('user:'))
    .map((by) => by.slice(5));
  return [...new Set(ids)].sort();
}

/** `Recording deleted Dec 2, 2026, 11:41 AM by the retention policy.` */
export function deletionText(what: 'Recording' | 'Transcript', deletion: CallDataDeletion, people?: KnownPeople) {
  return `${what} deleted ${formatTime(deletion.deleted_at)} by ${deletedByText(deletion.deleted_by, people)}.`;
}
