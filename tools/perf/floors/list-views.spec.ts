import { toView } from '../../../apps/calls-media/src/calls/calls.service';
import { hashSecret } from '../../../apps/gateway/src/auth/api-key-secret';
import { callView, keyHash, listPage } from './list-views.mjs';

// A row as the floors get it from calls-media's own page statement (CALLS_PAGE_SQL): pg and Prisma's raw queries both
// give timestamptz as a Date, jsonb parsed and bigint `seq` as a bigint or a string (the view does not read it).
const row = (overrides: Record<string, unknown> = {}) => ({
  id: 'CA0f6c2b0e3d9a4c1b8e7f6a5d4c3b2a19',
  seq: 7n,
  account_id: 'acct_1',
  number_id: 'num_1',
  phone_number: '+14155550100',
  caller: '+14155550199',
  direction: 'inbound',
  status: 'completed',
  outcome: 'order_placed',
  duration_sec: 125,
  started_at: new Date('2026-11-20T18:30:00.000Z'),
  has_transcript: true,
  recording_key: 'CA0f6c2b0e3d9a4c1b8e7f6a5d4c3b2a19.mp3',
  recording_size: 2_000_000,
  recording_etag: 'abc',
  recording_content_type: 'audio/mpeg',
  summary: 'The caller ordered a large margherita for pickup at 7pm.',
  sentiment: 'positive',
  successful: true,
  custom_analysis: { order_total: 23.5, pickup: true },
  recording_deleted_at: null,
  recording_deleted_by: null,
  transcript_deleted_at: null,
  transcript_deleted_by: null,
  ...overrides,
});

describe("the API floors' call view", () => {
  it('answers what calls-media answers for a call (its `toView`), with livemode as the gateway adds it', () => {
    for (const r of [
      row(),
      row({ summary: null, sentiment: 'unknown', successful: null, custom_analysis: {}, recording_key: null }),
      row({ sentiment: 'negative', successful: false, has_transcript: false }),
      row({
        recording_key: null,
        recording_deleted_at: new Date('2026-11-21T00:00:00.000Z'),
        recording_deleted_by: 'retention',
        has_transcript: false,
        transcript_deleted_at: new Date('2026-11-22T00:00:00.000Z'),
        transcript_deleted_by: 'key:key_1',
      }),
    ])
      expect(callView(r)).toEqual({ ...toView(r as never), livemode: true });
  });

  it('reads a sentiment the service would not answer as unknown, as sentimentOf does', () => {
    expect(callView(row({ sentiment: 'angry' })).analysis.sentiment).toBe('unknown');
  });

  it('pages as the list does', () => {
    const page = listPage(
      Array.from({ length: 51 }, (_, i) => row({ id: `CA${i}` })),
      callView,
    );
    expect(page.data).toHaveLength(50);
    expect(page.has_more).toBe(true);
  });
});

describe("the API floors' key", () => {
  it("is the gateway's hash of a Bearer header's credentials, the scheme in any case (as its `bearerToken`)", () => {
    for (const header of ['Bearer sk_live_abc', 'bearer   sk_live_abc', ' BEARER sk_live_abc '])
      expect(keyHash(header)).toBe(hashSecret('sk_live_abc'));
    for (const header of [undefined, '', 'Basic sk_live_abc', 'Bearer', 'Bearer sk_live_abc more'])
      expect(keyHash(header)).toBeUndefined();
  });
});
