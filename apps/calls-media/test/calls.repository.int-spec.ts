import { CALLS_MEDIA_DATABASES, openCallsMediaDatabase, type OpenCallsMediaDatabase } from './calls-media-databases';
import { compileSql } from '@switchboard/persistence';
import { CallsRepository, dailyUsageStatement, type CallPageFilter } from '../src/calls/calls.repository';

jest.setTimeout(60_000);

const ACCOUNT = 'acct_list';
const OTHER_ACCOUNT = 'acct_other';
/** What every seeded call has in common, and call e's recording: stored through Prisma, read back through the SQL. */
const DETAILS = {
  phone_number: '+14155550100',
  caller: '+14155550199',
  direction: 'inbound',
  status: 'completed',
  outcome: 'order',
  duration_sec: 42,
};
const RECORDING = {
  recording_key: 'recordings/e.mp3',
  recording_size: 4096,
  recording_etag: '"e"',
  recording_content_type: 'audio/mpeg',
};

/**
 * The list's SQL on both databases a deployment can have, through the Prisma client's `$kysely()`: PostgreSQL and
 * embedded PGlite (`npm start` without <APP>_DATABASE_URL); the rows are typed the same on both (bigint as a bigint).
 */
describe.each(CALLS_MEDIA_DATABASES)('CallsRepository on %s', (_label, kind) => {
  let database: OpenCallsMediaDatabase;
  let calls: CallsRepository;

  beforeAll(async () => {
    database = await openCallsMediaDatabase(kind);
    calls = new CallsRepository(database.client);
    // Inserted in this order, so `seq` breaks the tie between c and d (same start): d, reported later, comes first.
    const plan: [string, string, string, string][] = [
      ['a', ACCOUNT, 'num_1', '2026-05-01T10:00:00.000Z'],
      ['b', ACCOUNT, 'num_2', '2026-05-02T10:00:00.000Z'],
      ['c', ACCOUNT, 'num_1', '2026-05-03T10:00:00.000Z'],
      ['d', ACCOUNT, 'num_2', '2026-05-03T10:00:00.000Z'],
      ['x', OTHER_ACCOUNT, 'num_1', '2026-05-03T12:00:00.000Z'],
      ['e', ACCOUNT, 'num_1', '2026-05-04T10:00:00.123Z'],
    ];
    for (const [name, account, numberId, startedAt] of plan) {
      await database.client.call.create({
        data: {
          id: sid(name),
          account_id: account,
          number_id: numberId,
          ...DETAILS,
          started_at: new Date(startedAt),
          has_transcript: name === 'e',
          ...(name === 'e' ? RECORDING : {}),
        },
      });
    }
  });

  afterAll(() => database?.close());

  const list = async (filter: Omit<CallPageFilter, 'accountId'> = {}, limit = 10) =>
    (await calls.list({ accountId: ACCOUNT, ...filter }, limit)).map((call) => call.id);
  const ids = (names: string) => names.split('').map(sid);
  const cursorOf = async (name: string) => {
    const call = await calls.findForAccount(ACCOUNT, sid(name));
    return { started_at: call!.started_at, seq: call!.seq };
  };

  it('reads a call with every field typed as the service expects', async () => {
    const call = await calls.findForAccount(ACCOUNT, sid('e'));
    expect(call).toEqual({
      id: sid('e'),
      seq: expect.any(BigInt),
      account_id: ACCOUNT,
      number_id: 'num_1',
      ...DETAILS,
      started_at: new Date('2026-05-04T10:00:00.123Z'),
      has_transcript: true,
      ...RECORDING,
      summary: null,
      sentiment: 'unknown',
      successful: null,
      custom_analysis: {},
      recording_deleted_at: null,
      recording_deleted_by: null,
      transcript_deleted_at: null,
      transcript_deleted_by: null,
    });
    expect((await calls.findForAccount(ACCOUNT, sid('a')))?.recording_key).toBeNull();
  });

  it("answers another account's call and an unknown id alike: null", async () => {
    expect(await calls.findForAccount(ACCOUNT, sid('x'))).toBeNull();
    expect(await calls.findForAccount(ACCOUNT, sid('z'))).toBeNull();
  });

  it("lists only the account's calls, newest first, the later report first on a tie, at most `limit`", async () => {
    expect(await list()).toEqual(ids('edcba'));
    expect(await list({}, 2)).toEqual(ids('ed'));
  });

  it('continues after a cursor without skipping or repeating a call, also across a tie', async () => {
    expect(await list({ after: await cursorOf('e') }, 2)).toEqual(ids('dc'));
    expect(await list({ after: await cursorOf('d') })).toEqual(ids('cba'));
    expect(await list({ after: await cursorOf('c') })).toEqual(ids('ba'));
    expect(await list({ after: await cursorOf('a') })).toEqual([]);
  });

  it('filters by number and by start time (since inclusive, until exclusive), alone and together', async () => {
    expect(await list({ numberId: 'num_2' })).toEqual(ids('db'));
    expect(await list({ since: new Date('2026-05-02T10:00:00.000Z') })).toEqual(ids('edcb'));
    expect(await list({ until: new Date('2026-05-04T10:00:00.123Z') })).toEqual(ids('dcba'));
    expect(
      await list({ since: new Date('2026-05-02T10:00:00.000Z'), until: new Date('2026-05-03T10:00:00.000Z') }),
    ).toEqual(ids('b'));
    expect(
      await list({
        numberId: 'num_1',
        since: new Date('2026-05-01T10:00:00.000Z'),
        until: new Date('2026-05-05T00:00:00.000Z'),
        after: await cursorOf('e'),
      }),
    ).toEqual(ids('ca'));
  });

  it('sums calls and seconds per UTC day, every day of the range present, oldest first, for the account only', async () => {
    expect(await calls.dailyUsage(ACCOUNT, '2026-05-04', 5)).toEqual([
      { date: '2026-04-30', calls: 0, seconds: 0 },
      { date: '2026-05-01', calls: 1, seconds: 42 },
      { date: '2026-05-02', calls: 1, seconds: 42 },
      { date: '2026-05-03', calls: 2, seconds: 84 },
      { date: '2026-05-04', calls: 1, seconds: 42 },
    ]);
    expect(await calls.dailyUsage(OTHER_ACCOUNT, '2026-05-03', 1)).toEqual([
      { date: '2026-05-03', calls: 1, seconds: 42 },
    ]);
    expect(await calls.dailyUsage('acct_none', '2026-05-04', 90)).toHaveLength(90);
  });

  it('reads the calls of each day through calls_stats_idx alone (an index-only scan)', async () => {
    const usage = compileSql(dailyUsageStatement(ACCOUNT, '2026-05-04', 30));
    // Vacuumed, as a big table is by autovacuum: its pages are all-visible, so an index-only scan reads no heap.
    await database.client.$executeRawUnsafe('VACUUM ANALYZE calls');
    const [, plan] = await database.client.$transaction([
      // The tables of a test are tiny, where a sequential scan is cheapest: the plan shows what a big table gets.
      database.client.$executeRawUnsafe('SET LOCAL enable_seqscan = off'),
      database.client.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${usage.sql}`, ...usage.parameters),
    ]);
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Only Scan using calls_stats_idx on calls/);
  });
});

/** A call SID for a one-letter name: `CA` and 32 hex digits, as the simulated provider gives. */
function sid(name: string): string {
  return `CA${name.charCodeAt(0).toString(16).padStart(32, '0')}`;
}
