import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { testNatsEnv, testNatsOptions } from '@switchboard/testing';
import { createGateway, type GatewayRuntime } from '../../apps/gateway/src/bootstrap';
import { MAX_LIVE_STREAMS_PER_ACCOUNT } from '../../apps/gateway/src/live-calls/live-call-streams';
import { retellCallEvent, retellLiveEvent, signedRetellWebhook } from '../stand-ins/retell/webhook-payloads';
import { RetellStandIn } from '../stand-ins/retell/retell-stand-in';
import {
  AdminClient,
  ApiSession,
  readServerSentEvents,
  startSystem,
  type JsonBody,
  type RunningSystem,
  type ServerSentEvent,
} from './support';

jest.setTimeout(120_000);

interface LiveStream {
  status: number;
  events: ServerSentEvent[];
  /** Resolves when the server ends the stream (or it is closed). */
  ended: Promise<void>;
  close(): void;
  of(type: string): JsonBody[];
}

/**
 * Calls while they happen (docs/live-calls.md), through the gateway: a call is listed from its start, its live
 * stream carries every turn on either of two gateway replicas and resumes after Last-Event-ID; Retell's live events
 * arriving out of order, twice or not at all leave the completed call, its bill and its `call.completed` exactly as
 * the end report makes them; a call whose end never comes is closed as incomplete, billed once, and corrected by a
 * late end with a ledger adjustment and `call.updated`.
 */
describe('live calls', () => {
  const retell = new RetellStandIn();
  let system: RunningSystem;
  let replica: GatewayRuntime;
  let replicaUrl: string;
  let admin: AdminClient;
  let owner: ApiSession;
  let stranger: ApiSession;
  let number: { id: string; phone_number: string };
  const streams: LiveStream[] = [];

  beforeAll(async () => {
    const retellUrl = await retell.start();
    system = await startSystem({
      env: {
        RETELL_API_KEY: retell.apiKey,
        RETELL_API_BASE_URL: retellUrl,
        PUBLIC_BASE_URL: 'https://api.switchboard.test',
        RATE_LIMIT_REQUESTS: '100000',
        HTTP_MAX_CONNECTIONS_PER_CLIENT: '1000',
        LIVE_CALLS_SWEEP_MS: '300',
      },
    });
    admin = new AdminClient(system);
    owner = await ApiSession.create(system);
    stranger = await ApiSession.create(system);
    number = (await owner.post('/numbers', { business_phone: '+14155550123' })).body;
    replica = await createGateway({ ...system.env, ...testNatsEnv('gateway') });
    replicaUrl = (await replica.listen({ port: 0, adminPort: 0 })).publicUrl;
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await replica?.close();
    await system?.stop();
    await retell.stop();
  });

  async function openLive(baseUrl: string, path: string, key: string, lastEventId?: string): Promise<LiveStream> {
    const controller = new AbortController();
    const response = await fetch(`${baseUrl}/v1${path}`, {
      headers: { authorization: `Bearer ${key}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      signal: controller.signal,
    });
    const events: ServerSentEvent[] = [];
    const ended =
      response.status === 200
        ? readServerSentEvents(response.body, (event) => events.push(event))
        : response.text().then(() => undefined);
    const stream: LiveStream = {
      status: response.status,
      events,
      ended,
      close: () => controller.abort(),
      of: (type) => events.filter((e) => e.event === type).map((e) => JSON.parse(e.data)),
    };
    streams.push(stream);
    return stream;
  }

  const eventually = async <T>(read: () => Promise<T> | T, ok: (value: T) => boolean, ms = 20_000): Promise<T> => {
    const deadline = Date.now() + ms;
    let value = await read();
    while (!ok(value) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      value = await read();
    }
    return value;
  };

  async function playLive(body: Record<string, unknown>): Promise<string> {
    const answer = await admin.request('POST', '/admin/provider/calls', {
      to: number.phone_number,
      caller: '+14155550199',
      outcome: 'order_placed',
      ...body,
    });
    expect(answer.status).toBe(202);
    return answer.body.call_sid;
  }

  /** The account's ledger rows that name the call (its talk time and any adjustment). */
  async function ledgerOf(callSid: string): Promise<{ kind: string; amount_millicents: number }[]> {
    const rows = (await admin.request('GET', `/admin/accounts/${owner.accountId}/ledger?limit=100`)).body.data as {
      kind: string;
      reference: string;
      amount_millicents: number;
    }[];
    return rows
      .filter((row) => row.reference.endsWith(callSid))
      .map(({ kind, amount_millicents }) => ({ kind, amount_millicents }));
  }

  /** The call events of the CALLS stream, by type, for one call. */
  async function callEvents(callSid: string): Promise<string[]> {
    const nc = await connect(testNatsOptions());
    try {
      const jsm = await jetstreamManager(nc);
      const stream = `${system.prefix.toUpperCase()}_CALLS`;
      const info = await jsm.streams.info(stream);
      const types: string[] = [];
      for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
        const msg = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
        const event = msg?.json<{ type: string; data: { call_sid: string } }>();
        if (event?.data.call_sid === callSid) types.push(event.type);
      }
      return types.sort();
    } finally {
      await nc.close();
    }
  }

  const transcript = [
    { role: 'agent', text: 'Pizza Planet, how can I help?' },
    { role: 'caller', text: 'A large margherita, please.' },
    { role: 'agent', text: 'Ready in twenty minutes.' },
  ];

  it('lists a call from its start and streams every turn on both replicas, then completes it, billed once', async () => {
    const onGateway = await openLive(system.publicUrl, '/calls/live', owner.key);
    const onReplica = await openLive(replicaUrl, '/calls/live', owner.key);
    const strangers = await openLive(system.publicUrl, '/calls/live', stranger.key);
    expect([onGateway.status, onReplica.status, strangers.status]).toEqual([200, 200, 200]);

    const sid = await playLive({ duration_sec: 42, transcript, live: { turn_interval_ms: 600 } });
    await eventually(
      () => onGateway.of('turn').length,
      (n) => n >= 1,
    );
    const inProgress = await owner.get(`/calls/${sid}`);
    expect(inProgress.body).toMatchObject({ id: sid, number_id: number.id, status: 'in_progress', duration_sec: 0 });
    expect((await owner.get('/calls')).body.data.map((call: { id: string }) => call.id)).toContain(sid);
    const sofar = (await owner.get(`/calls/${sid}/transcript`)).body.turns;
    expect(sofar.length).toBeGreaterThanOrEqual(1);
    expect(sofar).toEqual(transcript.slice(0, sofar.length));

    // A stream opened mid-call on the other replica replays what the call has so far, then goes on.
    const oneCall = await openLive(replicaUrl, `/calls/${sid}/live`, owner.key);
    expect(oneCall.status).toBe(200);
    await oneCall.ended;
    for (const stream of [onGateway, onReplica]) {
      await eventually(
        () => stream.of('ended').length,
        (n) => n === 1,
      );
    }
    for (const stream of [onGateway, onReplica, oneCall]) {
      const own = (type: string) => stream.of(type).filter((data) => data.call_id === sid);
      expect(own('status')).toEqual([
        expect.objectContaining({ call_id: sid, status: 'in_progress', caller: '+14155550199' }),
      ]);
      expect(own('turn').map(({ position, role, text }) => ({ position, role, text }))).toEqual(
        transcript.map((turn, position) => ({ position, ...turn })),
      );
      expect(own('ended')).toEqual([{ call_id: sid, status: 'completed', duration_sec: 42 }]);
      const ids = stream.events.filter((e) => e.id !== undefined).map((e) => BigInt(e.id!));
      expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    }
    expect(oneCall.of('end')).toEqual([expect.objectContaining({ reason: 'call_ended' })]);
    expect(strangers.events.filter((e) => e.data.includes(sid))).toEqual([]);

    expect((await owner.get(`/calls/${sid}`)).body).toMatchObject({ status: 'completed', duration_sec: 42 });
    expect((await owner.get(`/calls/${sid}/transcript`)).body.turns).toEqual(transcript);
    const billed = await eventually(
      () => ledgerOf(sid),
      (rows) => rows.length > 0,
    );
    expect(billed.map((row) => row.kind)).toEqual(['talk_time']);
    expect(
      await eventually(
        () => callEvents(sid),
        (types) => types.length >= 2,
      ),
    ).toEqual(['call.completed', 'call.started']);
  });

  it('resumes a stream after Last-Event-ID, refuses a bad one, and answers 404 for another account’s call', async () => {
    const sid = await playLive({ duration_sec: 5, transcript, live: { turn_interval_ms: 20 } });
    await eventually(
      async () => (await owner.get(`/calls/${sid}`)).body.status,
      (status) => status === 'completed',
    );
    const whole = await openLive(system.publicUrl, `/calls/${sid}/live`, owner.key);
    await whole.ended;
    expect(whole.events.map((e) => e.event)).toEqual(['status', 'turn', 'turn', 'turn', 'ended', 'end']);
    const firstTurn = whole.events.find((e) => e.event === 'turn')!.id!;
    const resumed = await openLive(replicaUrl, `/calls/${sid}/live`, owner.key, firstTurn);
    await resumed.ended;
    expect(resumed.events.map((e) => e.event)).toEqual(['turn', 'turn', 'ended', 'end']);
    expect(resumed.events.slice(0, 3).map((e) => e.id)).toEqual(whole.events.slice(2, 5).map((e) => e.id));

    expect((await openLive(system.publicUrl, `/calls/${sid}/live`, owner.key, 'yesterday')).status).toBe(400);
    const elsewhere = await openLive(system.publicUrl, `/calls/${sid}/live`, stranger.key);
    expect(elsewhere.status).toBe(404);
    expect((await openLive(system.publicUrl, `/calls/CA${'0'.repeat(32)}/live`, owner.key)).status).toBe(404);
  });

  it(`refuses a live stream past ${MAX_LIVE_STREAMS_PER_ACCOUNT} open on one replica with 429`, async () => {
    const session = await ApiSession.create(system);
    const open = await Promise.all(
      Array.from({ length: MAX_LIVE_STREAMS_PER_ACCOUNT }, () => openLive(replicaUrl, '/calls/live', session.key)),
    );
    expect(open.map((stream) => stream.status)).toEqual(open.map(() => 200));
    const refused = await fetch(`${replicaUrl}/v1/calls/live`, { headers: { authorization: `Bearer ${session.key}` } });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe('rate_limited');
    open[0].close();
    await eventually(
      async () => {
        const again = await openLive(replicaUrl, '/calls/live', session.key);
        if (again.status === 200) again.close();
        return again.status;
      },
      (status) => status === 200,
    );
    for (const stream of open) stream.close();
  });

  it('ends its streams with `end: shutdown` when a replica stops, without holding the stop', async () => {
    const stopping = await createGateway({ ...system.env, ...testNatsEnv('gateway') });
    const url = (await stopping.listen({ port: 0, adminPort: 0 })).publicUrl;
    const all = await openLive(url, '/calls/live', owner.key);
    expect(all.status).toBe(200);
    const started = Date.now();
    await stopping.close();
    await all.ended;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(all.of('end')).toEqual([expect.objectContaining({ reason: 'shutdown' })]);
  });

  describe('Retell live events out of order: the completed call is what call_analyzed says', () => {
    let calls = 0;
    const sendRetell = async (payload: unknown) => {
      const { body, headers } = signedRetellWebhook(payload, retell.apiKey);
      const answer = await fetch(`${system.publicUrl}/provider-webhooks/retell`, { method: 'POST', body, headers });
      expect(answer.status).toBe(200);
    };
    const retellTurns = [
      { role: 'agent' as const, content: 'Thanks for calling.' },
      { role: 'user' as const, content: 'Is the shop open on Sunday?' },
    ];
    const analyzedTurns = [...retellTurns, { role: 'agent' as const, content: 'Yes, from ten to four.' }];

    /** Sends the events in order, then checks the call, its bill and its events are the completed call's alone. */
    async function check(order: ('started' | 'turns' | 'analyzed')[]): Promise<void> {
      calls += 1;
      const callId = `call_live_${calls}_${Date.now()}`;
      const startedAt = new Date(Date.now() - 60_000);
      const options = { callId, from: '+14155550177', to: number.phone_number, startedAt };
      for (const step of order) {
        if (step === 'started') await sendRetell(retellLiveEvent('call_started', options));
        if (step === 'turns')
          await sendRetell(retellLiveEvent('transcript_updated', { ...options, transcript: retellTurns }));
        if (step === 'analyzed')
          await sendRetell(
            retellCallEvent('call_analyzed', { ...options, durationMs: 33_000, transcript: analyzedTurns }),
          );
      }
      const call = await eventually(
        async () => (await owner.get(`/calls/${callId}`)).body,
        (body) => body.status === 'completed',
      );
      expect(call).toMatchObject({
        status: 'completed',
        duration_sec: 33,
        caller: '+14155550177',
        has_transcript: true,
      });
      // Events after the end may still be on their way: they must change nothing.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await owner.get(`/calls/${callId}`)).body).toMatchObject({ status: 'completed', duration_sec: 33 });
      expect((await owner.get(`/calls/${callId}/transcript`)).body.turns).toEqual([
        { role: 'agent', text: 'Thanks for calling.' },
        { role: 'caller', text: 'Is the shop open on Sunday?' },
        { role: 'agent', text: 'Yes, from ten to four.' },
      ]);
      expect(
        (
          await eventually(
            () => ledgerOf(callId),
            (rows) => rows.length > 0,
          )
        ).map((r) => r.kind),
      ).toEqual(['talk_time']);
      const types = await eventually(
        () => callEvents(callId),
        (found) => found.includes('call.completed'),
      );
      expect(types.filter((type) => type === 'call.completed')).toHaveLength(1);
      expect(types).not.toContain('call.updated');
    }

    it('in order: start, turns, end', () => check(['started', 'turns', 'analyzed']));
    it('twice: every live event repeated', () => check(['started', 'started', 'turns', 'turns', 'analyzed']));
    it('start missing: the turns start the call', () => check(['turns', 'analyzed']));
    it('turns missing: the end brings the transcript', () => check(['started', 'analyzed']));
    it('no live event at all, as before', () => check(['analyzed']));
    it('end before start: the late start and turns are left alone', () => check(['analyzed', 'started', 'turns']));
  });

  it('closes a call whose end never came as incomplete, billed once, and corrects it when the end comes late', async () => {
    // Started two hours ago: past the default max_call_minutes (60) as soon as its start is heard. Its end comes with
    // the last turn, seconds later.
    const startedAt = new Date(Date.now() - 2 * 3600_000).toISOString();
    const sid = await playLive({
      duration_sec: 30,
      started_at: startedAt,
      transcript: transcript.slice(0, 1),
      live: { turn_interval_ms: 4_000 },
    });
    const closed = await eventually(
      async () => (await owner.get(`/calls/${sid}`)).body,
      (call) => call.status === 'incomplete',
    );
    // Known only to its start (reported now, two hours late): at most its number's max_call_minutes.
    expect(closed).toMatchObject({ status: 'incomplete', outcome: 'unknown', duration_sec: 3600 });
    const firstBill = await eventually(
      () => ledgerOf(sid),
      (rows) => rows.length === 1,
    );
    expect(firstBill.map((row) => row.kind)).toEqual(['talk_time']);

    const corrected = await eventually(
      async () => (await owner.get(`/calls/${sid}`)).body,
      (call) => call.status === 'completed',
    );
    expect(corrected).toMatchObject({ status: 'completed', outcome: 'order_placed', duration_sec: 30 });
    const rows = await eventually(
      () => ledgerOf(sid),
      (found) => found.length === 2,
    );
    expect(rows.map((row) => row.kind).sort()).toEqual(['talk_time', 'talk_time_adjustment']);
    // Charged (negative) for an hour, then credited back all but the 30 s the call lasted.
    const total = rows.reduce((sum, row) => sum + row.amount_millicents, 0);
    const charge = rows.find((row) => row.kind === 'talk_time')!.amount_millicents;
    expect(total).toBe(Math.round((charge * 30) / 3600));
    const types = await eventually(
      () => callEvents(sid),
      (found) => found.includes('call.updated'),
    );
    expect(types).toEqual(['call.completed', 'call.started', 'call.updated']);
  });
});
