import { CALLS_MEDIA_DATABASES, openCallsMediaDatabase, type OpenCallsMediaDatabase } from './calls-media-databases';
import { EMPTY_CALL_ANALYSIS, type CallAnalysisView } from '@switchboard/contracts';
import { CallReportsRepository, type NewReport } from '../src/call-reports/call-reports.repository';
import { CallsRepository, MATCH_START, MATCH_STOP, type CallFilter } from '../src/calls/calls.repository';
import type { NumberOwnershipState } from '../src/number-ownership/attribution';

jest.setTimeout(60_000);

const ACCOUNT = 'acct_search';
const OTHER = 'acct_search_other';

interface Planned {
  name: string;
  account?: string;
  number?: string;
  caller?: string;
  outcome?: string;
  direction?: string;
  status?: string;
  duration?: number;
  day: string;
  recording?: boolean;
  turns?: string[];
  analysis?: Partial<CallAnalysisView>;
}

/** Calls written through the path every report takes (`addRecorded`), so `search` is the service's own. */
const PLAN: Planned[] = [
  {
    name: 'a',
    day: '2026-05-01',
    outcome: 'order_placed',
    duration: 30,
    turns: ['Pizza Planet, how can I help?', 'Do you have a gluten-free crust?'],
    analysis: { summary: 'Asked about gluten free crust; ordered.', sentiment: 'positive', successful: true },
  },
  {
    name: 'b',
    day: '2026-05-01',
    outcome: 'transferred',
    caller: '+14155550111',
    duration: 300,
    recording: true,
    turns: ['I want to speak to the manager about my pizza order.'],
    analysis: { sentiment: 'negative', successful: false, custom: { refund: true } },
  },
  {
    name: 'c',
    day: '2026-05-02',
    outcome: 'order_placed',
    number: 'num_2',
    duration: 95,
    direction: 'outbound',
    turns: ['Calling back about catering for fifty people.'],
    analysis: { sentiment: 'neutral', successful: true },
  },
  { name: 'd', day: '2026-05-03', outcome: 'missed', status: 'no-answer', duration: 0 },
  {
    name: 'x',
    account: OTHER,
    day: '2026-05-02',
    outcome: 'order_placed',
    caller: '+14155550111',
    recording: true,
    turns: ['Gluten free crust please, and a pizza for the manager.'],
    analysis: { summary: 'Another account: gluten free.', sentiment: 'negative', successful: true },
  },
];

describe.each(CALLS_MEDIA_DATABASES)('call search and stats on %s', (_label, kind) => {
  let database: OpenCallsMediaDatabase;
  let calls: CallsRepository;

  beforeAll(async () => {
    database = await openCallsMediaDatabase(kind);
    calls = new CallsRepository(database.client);
    const reports = new CallReportsRepository(database.client);
    for (const call of PLAN) {
      const started = new Date(`${call.day}T12:00:00.000Z`);
      const report: NewReport = {
        call_sid: sid(call.name),
        to: '+14155550100',
        started_at: started,
        details: {
          caller: call.caller ?? '+14155550199',
          direction: call.direction ?? 'inbound',
          status: call.status ?? 'completed',
          outcome: call.outcome ?? 'answered',
          duration_sec: call.duration ?? 60,
          transcript: call.turns
            ? call.turns.map((text, index) => ({ role: index % 2 ? 'caller' : 'agent', text }))
            : null,
        },
        recording: call.recording
          ? { key: `${call.name}.mp3`, size: 10, etag: '"e"', content_type: 'audio/mpeg' }
          : null,
      };
      const owner: NumberOwnershipState = {
        number_id: call.number ?? 'num_1',
        version: 1n,
        account_id: call.account ?? ACCOUNT,
        phone_number: '+14155550100',
        status: 'active',
        answering: true,
        max_call_minutes: null,
        changed_at: new Date('2026-01-01T00:00:00Z'),
      };
      const analysis = { ...EMPTY_CALL_ANALYSIS, ...call.analysis };
      expect(await reports.addRecorded(report, started, owner, analysis, [])).toEqual({ ended: null });
    }
  });

  afterAll(() => database?.close());

  const list = async (filter: Omit<CallFilter, 'accountId'>) =>
    (await calls.list({ accountId: ACCOUNT, ...filter }, 10)).map((call) => call.id);
  const ids = (names: string) => names.split('').map(sid);

  it('keeps the analysis with the call', async () => {
    const call = await calls.findForAccount(ACCOUNT, sid('b'));
    expect(call).toMatchObject({
      summary: null,
      sentiment: 'negative',
      successful: false,
      custom_analysis: { refund: true },
    });
  });

  it.each<[string, Omit<CallFilter, 'accountId'>, string]>([
    ['one outcome', { outcomes: ['order_placed'] }, 'ca'],
    ['several outcomes', { outcomes: ['missed', 'transferred'] }, 'db'],
    ['direction', { direction: 'outbound' }, 'c'],
    ['status', { status: 'no-answer' }, 'd'],
    ['caller', { caller: '+14155550111' }, 'b'],
    ['min_duration', { minDuration: 95 }, 'cb'],
    ['max_duration', { maxDuration: 30 }, 'da'],
    ['both durations', { minDuration: 30, maxDuration: 95 }, 'ca'],
    ['sentiment', { sentiment: 'negative' }, 'b'],
    ['sentiment unknown', { sentiment: 'unknown' }, 'd'],
    ['successful', { successful: true }, 'ca'],
    ['unsuccessful', { successful: false }, 'b'],
    ['with a recording', { hasRecording: true }, 'b'],
    ['without a recording', { hasRecording: false }, 'dca'],
    ['a word, in any form', { q: 'ordering' }, 'ba'],
    ['a word of the summary only', { q: 'ordered' }, 'ba'],
    ['a phrase', { q: '"gluten free"' }, 'a'],
    ['a word left out', { q: 'pizza -manager' }, 'a'],
    ['either word', { q: 'catering or manager' }, 'cb'],
    ['only stop words', { q: 'the' }, ''],
    ['filters together', { outcomes: ['order_placed'], q: 'catering', numberId: 'num_2' }, 'c'],
  ])("filters by %s, the account's calls only", async (_title, filter, expected) => {
    expect(await list(filter)).toEqual(ids(expected));
  });

  it('marks where q matched, in the summary or the transcript', async () => {
    const matches = await calls.matches([sid('a'), sid('c')], '"gluten free" or catering');
    expect(matches.get(sid('a'))).toContain(`${MATCH_START}gluten${MATCH_STOP}`);
    expect(matches.get(sid('c'))).toContain(`${MATCH_START}catering${MATCH_STOP}`);
  });

  it('counts every page of a filtered list, up to the cap', async () => {
    expect(await calls.count({ accountId: ACCOUNT }, 100)).toBe(4);
    expect(await calls.count({ accountId: ACCOUNT, outcomes: ['order_placed'] }, 100)).toBe(2);
    expect(await calls.count({ accountId: ACCOUNT }, 3)).toBe(3);
  });

  it('counts calls, seconds and success judgements per group of the range, for the account only', async () => {
    const range = {
      accountId: ACCOUNT,
      since: new Date('2026-05-01T00:00:00Z'),
      until: new Date('2026-05-03T00:00:00Z'),
    };
    const byOutcome = await calls.stats(range, 'outcome');
    expect(byOutcome.map(({ seconds, ...row }) => ({ ...row, seconds: Number(seconds) })).sort(byGroup)).toEqual([
      { group: 'order_placed', outcome: null, calls: 2, seconds: 125, judged: 2, succeeded: 2 },
      { group: 'transferred', outcome: null, calls: 1, seconds: 300, judged: 1, succeeded: 0 },
    ]);
    const byDay = await calls.stats(range, 'day');
    expect(byDay.map((row) => [row.group, row.outcome, row.calls]).sort()).toEqual([
      ['2026-05-01', 'order_placed', 1],
      ['2026-05-01', 'transferred', 1],
      ['2026-05-02', 'order_placed', 1],
    ]);
    expect((await calls.stats({ ...range, numberId: 'num_2' }, 'number_id')).map((row) => row.group)).toEqual([
      'num_2',
    ]);
  });
});

function byGroup(a: { group: string }, b: { group: string }): number {
  return a.group < b.group ? -1 : 1;
}

/** A call SID for a one-letter name: `CA` and 32 hex digits, as the simulated provider gives. */
function sid(name: string): string {
  return `CA${name.charCodeAt(0).toString(16).padStart(32, '0')}`;
}
