import {
  MAX_RETENTION_DAYS as CONTRACT_MAX,
  MIN_RETENTION_DAYS as CONTRACT_MIN,
  STORAGE_MODES,
} from '@switchboard/contracts';
import {
  MAX_RETENTION_DAYS,
  MIN_RETENTION_DAYS,
  STORAGE_MODE_CHOICES,
  dataSettingsText,
  deletedByText,
  deletingUsers,
  deletionText,
  retentionDaysOf,
  retentionDraftOf,
  retentionText,
} from './call-data';
import { formatTime } from './format';

describe("a call's data: storage modes, retention periods, deletions", () => {
  it("offers the contracts' storage modes and retention range (the console cannot import them as values)", () => {
    expect(STORAGE_MODE_CHOICES.map((choice) => choice.value)).toEqual(STORAGE_MODES);
    expect([MIN_RETENTION_DAYS, MAX_RETENTION_DAYS]).toEqual([CONTRACT_MIN, CONTRACT_MAX]);
    const noPii = STORAGE_MODE_CHOICES.find((choice) => choice.value === 'no_pii')?.explanation ?? '';
    for (const kind of [
      'phone numbers',
      'e-mail addresses',
      'card numbers',
      'SSNs',
      'street addresses',
      'no recording',
    ])
      expect(noPii).toContain(kind);
  });

  it('reads a retention period into the form and back: forever, or whole days', () => {
    expect(retentionDraftOf(90)).toEqual({ forever: false, days: '90' });
    expect(retentionDraftOf(null)).toEqual({ forever: true, days: '' });
    // Forever keeps the days typed before, for switching back.
    expect(retentionDraftOf(null, { forever: false, days: '30' })).toEqual({ forever: true, days: '30' });

    expect(retentionDaysOf({ forever: true, days: '30' })).toBeNull();
    expect(retentionDaysOf({ forever: false, days: ' 30 ' })).toBe(30);
    // The range is the server's to check (and to name): 731 is sent as it is.
    expect(retentionDaysOf({ forever: false, days: '731' })).toBe(731);
    for (const typed of ['', '1.5', '-3', 'ten', '1e3'])
      expect([typed, retentionDaysOf({ forever: false, days: typed })]).toEqual([typed, undefined]);
  });

  it('says the settings in words', () => {
    expect(retentionText(null)).toBe('kept forever');
    expect(retentionText(1)).toBe('deleted after 1 day');
    expect(retentionText(90)).toBe('deleted after 90 days');
    expect(dataSettingsText({ storage_mode: 'no_pii', recordings_days: 30, transcripts_days: null })).toBe(
      'Storing: no personal data. Recordings deleted after 30 days; transcripts and summaries kept forever.',
    );
  });

  it('names who deleted: the retention policy, an API key, you, a member, or a console user by id', () => {
    expect(deletedByText('retention')).toBe('the retention policy');
    expect(deletedByText('key:key_0123')).toBe('API key key_0123');
    const people = { me: 'usr_1', emails: new Map([['usr_2', 'dev@pizza.test']]) };
    expect(deletedByText('user:usr_1', people)).toBe('you');
    expect(deletedByText('user:usr_2', people)).toBe('dev@pizza.test');
    expect(deletedByText('user:usr_3', people)).toBe('a console user (usr_3)');
    expect(deletedByText('user:usr_3')).toBe('a console user (usr_3)');
    expect(deletedByText('something_new')).toBe('something_new');
  });

  it('writes the deletion note with its time, and finds the users to look up', () => {
    const at = '2026-12-02T11:41:50.000Z';
    expect(deletionText('Recording', { deleted_at: at, deleted_by: 'retention' })).toBe(
      `Recording deleted ${formatTime(at)} by the retention policy.`,
    );
    expect(deletionText('Transcript', { deleted_at: at, deleted_by: 'user:usr_1' }, { me: 'usr_1' })).toBe(
      `Transcript deleted ${formatTime(at)} by you.`,
    );
    expect(
      deletingUsers([
        { deleted_at: at, deleted_by: 'user:usr_2' },
        null,
        { deleted_at: at, deleted_by: 'key:key_1' },
        { deleted_at: at, deleted_by: 'user:usr_2' },
        undefined,
      ]),
    ).toEqual(['usr_2']);
  });
});
