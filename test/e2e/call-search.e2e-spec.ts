import { AdminClient, ApiSession, startSystem, type RunningSystem } from './support';

jest.setTimeout(120_000);

interface SeedCall {
  key: string;
  caller?: string;
  duration_sec?: number;
  outcome?: string;
  direction?: string;
  status?: string;
  started_at: string;
  transcript?: { role: string; text: string }[];
  recording?: boolean;
  analysis?: Record<string, unknown>;
}

/** One account's calls; a second account gets the same calls, so every filter that leaked would show them. */
const CALLS: SeedCall[] = [
  {
    key: 'gluten',
    started_at: '2026-11-20T10:00:00.000Z',
    duration_sec: 40,
    outcome: 'order_placed',
    transcript: [
      { role: 'agent', text: 'Pizza Planet, how can I help?' },
      { role: 'caller', text: 'Do you have a gluten-free crust? <b>bold</b> & more' },
    ],
    analysis: { summary: 'Asked about gluten free crust.', sentiment: 'positive', successful: true },
  },
  {
    key: 'manager',
    started_at: '2026-11-20T15:00:00.000Z',
    duration_sec: 400,
    outcome: 'transferred',
    caller: '+14155550111',
    recording: true,
    transcript: [{ role: 'caller', text: 'Let me talk to the manager about my pizza.' }],
    analysis: { summary: 'Unhappy with a late pizza.', sentiment: 'negative', successful: false },
  },
  {
    key: 'catering',
    started_at: '2026-11-21T09:00:00.000Z',
    duration_sec: 125,
    outcome: 'order_placed',
    direction: 'outbound',
    transcript: [{ role: 'agent', text: 'Calling back about catering for fifty people.' }],
    analysis: { sentiment: 'neutral', successful: true },
  },
  { key: 'missed', started_at: '2026-11-22T09:00:00.000Z', duration_sec: 0, outcome: 'missed', status: 'no-answer' },
];

describe('call search, filters and stats through the gateway', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let owner: ApiSession;
  let stranger: ApiSession;
  let numberId: string;
  const sids: Record<string, string> = {};
  const strangerSids: Record<string, string> = {};

  async function seed(session: ApiSession, into: Record<string, string>): Promise<string> {
    const provisioned = await session.post('/numbers', { business_phone: '+14155550123' });
    expect(provisioned.status).toBe(201);
    for (const { key, ...call } of CALLS) {
      const answer = await admin.request('POST', '/admin/provider/calls', {
        to: provisioned.body.phone_number,
        caller: '+14155550199',
        duration_sec: 60,
        outcome: 'answered',
        ...call,
      });
      expect(answer.status).toBe(202);
      into[key] = answer.body.call_sid;
    }
    return provisioned.body.id;
  }

  /** The keys of the calls a query lists for the owner; the stranger's same query lists only the stranger's. */
  async function listed(query: string): Promise<string[]> {
    const answer = await owner.get(`/calls?${query}`);
    expect(answer.status).toBe(200);
    const theirs = await stranger.get(`/calls?${query}`);
    expect(theirs.status).toBe(200);
    const mine = new Set(Object.values(sids));
    for (const call of theirs.body.data) expect(mine.has(call.id)).toBe(false);
    const keyOf = new Map(Object.entries(sids).map(([key, sid]) => [sid, key]));
    const keys = answer.body.data.map((call: { id: string }) => keyOf.get(call.id) ?? `foreign ${call.id}`);
    const strangerKeys = new Map(Object.entries(strangerSids).map(([key, sid]) => [sid, key]));
    // The same filter over the same calls finds the same ones in each account.
    expect(theirs.body.data.map((call: { id: string }) => strangerKeys.get(call.id))).toEqual(keys);
    return keys;
  }

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing', 'calls-media'] });
    admin = new AdminClient(system);
    owner = await ApiSession.create(system);
    stranger = await ApiSession.create(system);
    numberId = await seed(owner, sids);
    await seed(stranger, strangerSids);
  });

  afterAll(() => system?.stop());

  it("shows each call's analysis, the empty analysis where the agent gave none", async () => {
    const gluten = await owner.get(`/calls/${sids.gluten}`);
    expect(gluten.body.analysis).toEqual({
      summary: 'Asked about gluten free crust.',
      sentiment: 'positive',
      successful: true,
      custom: {},
    });
    const missed = await owner.get(`/calls/${sids.missed}`);
    expect(missed.body.analysis).toEqual({ summary: null, sentiment: 'unknown', successful: null, custom: {} });
  });

  it.each([
    ['nothing', '', ['missed', 'catering', 'manager', 'gluten']],
    ['one outcome', 'outcome=order_placed', ['catering', 'gluten']],
    ['several outcomes', 'outcome=missed,transferred', ['missed', 'manager']],
    ['direction', 'direction=outbound', ['catering']],
    ['status', 'status=no-answer', ['missed']],
    ['caller', `caller=${encodeURIComponent('+14155550111')}`, ['manager']],
    ['min_duration', 'min_duration=125', ['catering', 'manager']],
    ['max_duration', 'max_duration=40', ['missed', 'gluten']],
    ['sentiment', 'sentiment=negative', ['manager']],
    ['successful', 'successful=true', ['catering', 'gluten']],
    ['unsuccessful', 'successful=false', ['manager']],
    ['has_recording', 'has_recording=true', ['manager']],
    ['no recording', 'has_recording=false', ['missed', 'catering', 'gluten']],
    ['q, a word in another form', 'q=pizzas', ['manager', 'gluten']],
    ['q, a phrase', `q=${encodeURIComponent('"gluten free"')}`, ['gluten']],
    ['q, a word left out', `q=${encodeURIComponent('pizza -manager')}`, ['gluten']],
    ['q over the summary', 'q=unhappy', ['manager']],
    ['filters together', 'outcome=order_placed&min_duration=100&since=2026-11-21T00:00:00Z', ['catering']],
  ])('filters by %s, never showing another account its calls', async (_title, query, expected) => {
    expect(await listed(query)).toEqual(expected);
  });

  it('pages a filtered list with the cursor', async () => {
    const first = await owner.get('/calls?outcome=order_placed,transferred&limit=2');
    expect(first.body.has_more).toBe(true);
    const next = await owner.get(
      `/calls?outcome=order_placed,transferred&limit=2&starting_after=${first.body.data[1].id}`,
    );
    expect([...first.body.data, ...next.body.data].map((call: { id: string }) => call.id)).toEqual([
      sids.catering,
      sids.manager,
      sids.gluten,
    ]);
    expect(next.body.has_more).toBe(false);
  });

  it('marks where q matched, HTML-escaped, and only with q', async () => {
    const answer = await owner.get(`/calls?q=${encodeURIComponent('gluten crust')}`);
    expect(answer.body.data).toHaveLength(1);
    const { match } = answer.body.data[0];
    expect(match).toContain('<mark>gluten</mark>');
    expect(match).toContain('<mark>crust</mark>');
    expect(match).not.toMatch(/[\u0000-\u001f]/);
    // Text is escaped; markup in a transcript is not text, and ts_headline leaves it out (docs/call-search.md).
    const bold = await owner.get(`/calls?q=bold`);
    expect(bold.body.data[0].match).toContain('crust? <mark>bold</mark> &amp; more');
    expect((await owner.get('/calls')).body.data[0]).not.toHaveProperty('match');
  });

  it('counts every page with include_total, and only then', async () => {
    const answer = await owner.get('/calls?outcome=order_placed&limit=1&include_total=true');
    expect(answer.body).toMatchObject({ has_more: true, total_count: 2, total_count_capped: false });
    expect(answer.body.data).toHaveLength(1);
    expect(await owner.get('/calls?include_total=false')).not.toHaveProperty('body.total_count');
  });

  it.each([
    ['outcome=', 'outcome'],
    ['outcome=a,,b', 'outcome'],
    ['caller=4155550111', 'caller'],
    ['min_duration=-1', 'min_duration'],
    ['max_duration=abc', 'max_duration'],
    ['min_duration=10&max_duration=5', 'min_duration'],
    ['sentiment=happy', 'sentiment'],
    ['successful=yes', 'successful'],
    ['has_recording=1', 'has_recording'],
    ['include_total=maybe', 'include_total'],
    ['q=', 'q'],
    [`q=${'x'.repeat(201)}`, 'q'],
    ['direction=', 'direction'],
    ['status=', 'status'],
  ])('refuses %s with a 400 naming %s', async (query, parameter) => {
    const answer = await owner.get(`/calls?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_request');
    expect(answer.body.error.message).toContain(parameter);
  });

  describe('stats', () => {
    /** The groups of a stats answer, each marked livemode as every item of a `data` list is (ADR 0087). */
    async function stats(query: string): Promise<Record<string, unknown>[]> {
      const answer = await owner.get(`/calls/stats?${query}`);
      expect(answer.status).toBe(200);
      return answer.body.data.map(({ livemode, ...group }: Record<string, unknown>) => {
        expect(livemode).toBe(true);
        return group;
      });
    }
    const range = 'since=2026-11-20T00:00:00Z&until=2026-11-23T00:00:00Z';

    it('counts by day, every day of the range, with the outcomes of each', async () => {
      const byDay = await stats(`${range}&group_by=day`);
      expect(byDay).toEqual([
        {
          group: '2026-11-20',
          calls: 2,
          minutes: 7,
          average_duration_sec: 220,
          success_rate: 0.5,
          outcomes: { order_placed: 1, transferred: 1 },
        },
        {
          group: '2026-11-21',
          calls: 1,
          minutes: 2,
          average_duration_sec: 125,
          success_rate: 1,
          outcomes: { order_placed: 1 },
        },
        {
          group: '2026-11-22',
          calls: 1,
          minutes: 0,
          average_duration_sec: 0,
          success_rate: null,
          outcomes: { missed: 1 },
        },
      ]);
      // Day is the default grouping.
      expect(await stats(range)).toEqual(byDay);
    });

    it('counts by outcome, sentiment and number, most calls first', async () => {
      expect(await stats(`${range}&group_by=outcome`)).toEqual([
        { group: 'order_placed', calls: 2, minutes: 2, average_duration_sec: 82.5, success_rate: 1 },
        { group: 'missed', calls: 1, minutes: 0, average_duration_sec: 0, success_rate: null },
        { group: 'transferred', calls: 1, minutes: 6, average_duration_sec: 400, success_rate: 0 },
      ]);
      const bySentiment = await stats(`${range}&group_by=sentiment`);
      expect(bySentiment.map((g) => [g.group, g.calls])).toEqual([
        ['negative', 1],
        ['neutral', 1],
        ['positive', 1],
        ['unknown', 1],
      ]);
      expect(await stats(`${range}&group_by=number&number_id=${numberId}`)).toEqual([
        { group: numberId, calls: 4, minutes: 9, average_duration_sec: 141.3, success_rate: 0.667 },
      ]);
    });

    it("counts only the account's calls", async () => {
      const none = await stranger.get(`/calls/stats?${range}&group_by=number&number_id=${numberId}`);
      expect(none.body.data).toEqual([]);
    });

    it.each([
      ['group_by=week', 'group_by'],
      ['since=yesterday', 'since'],
      ['until=2026-11-01T00:00:00Z&since=2026-11-02T00:00:00Z', 'since'],
      ['since=2025-01-01T00:00:00Z&until=2026-11-01T00:00:00Z', '366 days'],
      ['number_id=abc', 'number_id'],
    ])('refuses %s with a 400 naming %s', async (query, parameter) => {
      const answer = await owner.get(`/calls/stats?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('invalid_request');
      expect(answer.body.error.message).toContain(parameter);
    });
  });
});
