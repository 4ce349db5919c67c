import { createHash } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { testNatsOptions } from '@switchboard/testing';
import { AdminClient, ApiSession, publicRequest, startSystem, type RunningSystem } from './support';

jest.setTimeout(90_000);

/**
 * Issue 4 through the gateway: a call injected with the operator API shows up in its owner's list with its
 * transcript and recording (whole and ranged), another account sees none of it, and call.completed reaches
 * JetStream exactly once.
 */
describe('calls, transcripts and recordings', () => {
  let system: RunningSystem;
  let admin: AdminClient;
  let owner: ApiSession;
  let stranger: ApiSession;
  let number: { id: string; phone_number: string; created_at: string };
  let callSid: string;

  const transcript = [
    { role: 'agent', text: 'Pizza Planet, how can I help?' },
    { role: 'caller', text: 'A large margherita for pick-up.' },
  ];

  /** Raw bytes of a public GET (the session helper reads bodies as text). */
  async function getBytes(session: ApiSession, path: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${system.publicUrl}/v1${path}`, {
      headers: { authorization: `Bearer ${session.key}`, ...headers },
    });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }

  async function reportCall(body: Record<string, unknown>): Promise<string> {
    const answer = await admin.request('POST', '/admin/provider/calls', body);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ call_sid: expect.stringMatching(/^CA[0-9a-f]{32}$/) });
    return answer.body.call_sid;
  }

  beforeAll(async () => {
    system = await startSystem({ services: ['numbers-billing', 'calls-media'] });
    admin = new AdminClient(system);
    owner = await ApiSession.create(system);
    stranger = await ApiSession.create(system);
    const provisioned = await owner.post('/numbers', { business_phone: '+14155550123' });
    expect(provisioned.status).toBe(201);
    number = provisioned.body;
    callSid = await reportCall({
      to: number.phone_number,
      caller: '+14155550199',
      duration_sec: 120,
      outcome: 'order_placed',
      started_at: '2026-11-20T10:00:00.000Z',
      transcript,
      recording: true,
    });
  });

  afterAll(() => system?.stop());

  it("lists the injected call for the number's owner with every field of the spec's Call", async () => {
    const answer = await owner.get('/calls');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: [
        {
          id: callSid,
          number_id: number.id,
          phone_number: number.phone_number,
          caller: '+14155550199',
          direction: 'inbound',
          status: 'completed',
          outcome: 'order_placed',
          duration_sec: 120,
          started_at: '2026-11-20T10:00:00.000Z',
          has_recording: true,
          has_transcript: true,
          analysis: { summary: null, sentiment: 'unknown', successful: null, custom: {} },
          recording_deletion: null,
          transcript_deletion: null,
          livemode: true,
        },
      ],
      has_more: false,
      livemode: true,
    });
  });

  it('returns the transcript as { call_sid, turns }', async () => {
    const answer = await owner.get(`/calls/${callSid}/transcript`);
    expect(answer).toMatchObject({ status: 200, body: { call_sid: callSid, turns: transcript } });
  });

  it('streams the whole recording as audio/mpeg with its length, ETag and Accept-Ranges', async () => {
    const answer = await getBytes(owner, `/calls/${callSid}/recording`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('audio/mpeg');
    expect(answer.headers.get('accept-ranges')).toBe('bytes');
    expect(Number(answer.headers.get('content-length'))).toBe(answer.body.length);
    expect(answer.headers.get('etag')).toBe(`"${createHash('md5').update(answer.body).digest('hex')}"`);
    // Two minutes of 24 ms MPEG-1 Layer III frames, each starting with a frame sync.
    expect(answer.body.length).toBe(5000 * 96);
    for (let offset = 0; offset < answer.body.length; offset += 96)
      expect(answer.body.readUInt16BE(offset) & 0xffe0).toBe(0xffe0);
  });

  it('answers a byte range with 206 and Content-Range, so players can seek', async () => {
    const whole = (await getBytes(owner, `/calls/${callSid}/recording`)).body;
    const first = await getBytes(owner, `/calls/${callSid}/recording`, { range: 'bytes=0-99' });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${whole.length}`);
    expect(first.headers.get('content-length')).toBe('100');
    expect(first.body.equals(whole.subarray(0, 100))).toBe(true);
    const across = await getBytes(owner, `/calls/${callSid}/recording`, { range: 'bytes=262000-263999' });
    expect(across.status).toBe(206);
    expect(across.body.equals(whole.subarray(262000, 264000))).toBe(true);
    const tail = await getBytes(owner, `/calls/${callSid}/recording`, { range: 'bytes=-10' });
    expect(tail.headers.get('content-range')).toBe(`bytes ${whole.length - 10}-${whole.length - 1}/${whole.length}`);
    expect(tail.body.equals(whole.subarray(whole.length - 10))).toBe(true);
  });

  it('answers HEAD with the headers of the whole recording and no body', async () => {
    const whole = (await getBytes(owner, `/calls/${callSid}/recording`)).body;
    const response = await fetch(`${system.publicUrl}/v1/calls/${callSid}/recording`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(whole.length));
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers a range past the end with 416 range_not_satisfiable and the size', async () => {
    const whole = (await getBytes(owner, `/calls/${callSid}/recording`)).body;
    const answer = await owner.get(`/calls/${callSid}/recording`, { range: `bytes=${whole.length}-` });
    expect(answer.status).toBe(416);
    expect(answer.headers.get('content-range')).toBe(`bytes */${whole.length}`);
    expect(answer.body.error.code).toBe('range_not_satisfiable');
  });

  it('answers 304 when If-None-Match names the current ETag', async () => {
    const etag = (await getBytes(owner, `/calls/${callSid}/recording`)).headers.get('etag')!;
    const answer = await getBytes(owner, `/calls/${callSid}/recording`, { 'if-none-match': etag });
    expect(answer.status).toBe(304);
    expect(answer.body.length).toBe(0);
  });

  it('shows another account none of it', async () => {
    expect((await stranger.get('/calls')).body).toEqual({ data: [], has_more: false, livemode: true });
    const transcriptAnswer = await stranger.get(`/calls/${callSid}/transcript`);
    expect(transcriptAnswer).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    const recordingAnswer = await stranger.get(`/calls/${callSid}/recording`);
    expect(recordingAnswer).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
  });

  it('answers 404 no_recording for a call without a recording, and not_found for its missing transcript', async () => {
    const sid = await reportCall({
      to: number.phone_number,
      caller: '+14155550142',
      duration_sec: 5,
      outcome: 'hung_up',
    });
    expect(await owner.get(`/calls/${sid}/recording`)).toMatchObject({
      status: 404,
      body: { error: { code: 'no_recording' } },
    });
    expect(await owner.get(`/calls/${sid}/transcript`)).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
    expect(await owner.get('/calls/CA00000000000000000000000000000000/transcript')).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    });
  });

  it('pages newest first with limit and starting_after, and filters by number and time', async () => {
    // An hour ahead: newer than every call reported "now" by the other tests, whatever the day the suite runs.
    const laterStart = new Date(Date.now() + 3_600_000).toISOString();
    const later = await reportCall({
      to: number.phone_number,
      caller: '+14155550143',
      duration_sec: 1,
      outcome: 'order',
      started_at: laterStart,
    });
    const page1 = await owner.get('/calls?limit=1&number_id=' + number.id);
    expect(page1.body).toMatchObject({ data: [{ id: later }], has_more: true });
    const page2 = await owner.get(
      `/calls?limit=1&starting_after=${later}&since=2026-11-20T00:00:00Z&until=2026-11-21T00:00:00Z`,
    );
    expect(page2.body).toMatchObject({ data: [{ id: callSid }], has_more: false });
    expect((await owner.get('/calls?limit=0')).status).toBe(400);
    expect((await owner.get('/calls?since=yesterday')).status).toBe(400);
  });

  it('refuses at once a report for a number that is not ours with 422 number_not_in_service, recording nothing', async () => {
    const before = (await owner.get('/calls?limit=100')).body.data.length;
    const started = Date.now();
    const answer = await admin.request('POST', '/admin/provider/calls', {
      to: '+14155550000',
      caller: '+14155550199',
      duration_sec: 30,
      outcome: 'order',
      recording: true,
    });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('number_not_in_service');
    expect(answer.body.error.message).toContain('+14155550000');
    expect((await owner.get('/calls?limit=100')).body.data).toHaveLength(before);
    expect((await stranger.get('/calls')).body.data).toEqual([]);
  });

  it('refuses a report for a released number, but takes a late report of a call made before the release', async () => {
    const session = await ApiSession.create(system);
    const released = (await session.post('/numbers', { business_phone: '+14155550123' })).body;
    // Within the number's tenure: after it was provisioned, before its release (ADR 0121).
    const beforeRelease = new Date(Date.parse(released.created_at) + 1).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await session.delete(`/numbers/${released.id}`)).status).toBe(200);
    const refused = await admin.request('POST', '/admin/provider/calls', {
      to: released.phone_number,
      caller: '+14155550199',
      duration_sec: 30,
      outcome: 'order',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('number_not_in_service');
    expect(refused.body.error.message).toContain('released');
    expect((await session.get('/calls')).body.data).toEqual([]);
    const late = await reportCall({
      to: released.phone_number,
      caller: '+14155550199',
      duration_sec: 30,
      outcome: 'order',
      started_at: beforeRelease,
    });
    expect((await session.get('/calls')).body.data.map((c: { id: string }) => c.id)).toEqual([late]);
  });

  it('starts a reported call, by default, its duration before the report, but not before its number was provisioned', async () => {
    const before = Date.now();
    const sid = await reportCall({
      to: number.phone_number,
      caller: '+14155550144',
      duration_sec: 2,
      outcome: 'order',
    });
    const after = Date.now();
    const startedAt = Date.parse((await owner.get(`/calls/${sid}`)).body.started_at);
    // Its duration before the report, or the number's provisioning when that is later (a suite that reaches this test
    // within 2 s of its beforeAll): never before the current holder's tenure.
    const held = Date.parse(number.created_at);
    expect(startedAt).toBeGreaterThanOrEqual(Math.max(before - 2_000, held));
    expect(startedAt).toBeLessThanOrEqual(Math.max(after - 2_000, held));

    // Ten minutes ago the number (provisioned when this suite began) was not yet the owner's: its tenure bounds it.
    const long = await reportCall({
      to: number.phone_number,
      caller: '+14155550144',
      duration_sec: 600,
      outcome: 'order',
    });
    expect((await owner.get(`/calls/${long}`)).body.started_at).toBe(new Date(number.created_at).toISOString());
  });

  it('lists a call to a phone number released by X and provisioned by Y to Y, never to X (issue 47)', async () => {
    const x = await ApiSession.create(system);
    const y = await ApiSession.create(system);
    const business = { business_phone: '+15125550123', area_code: '512' };
    const held = await x.post('/numbers', business);
    expect(held.status).toBe(201);
    expect(held.body.phone_number).toBe('+15125550100');
    expect((await x.delete(`/numbers/${held.body.id}`)).status).toBe(200);
    const reissued = await y.post('/numbers', business);
    expect(reissued.status).toBe(201);
    expect(reissued.body.phone_number).toBe('+15125550100');

    // Reported at once, without started_at: a 30-second call "started" 30 s ago, before either account had it.
    const sid = await reportCall({
      to: '+15125550100',
      caller: '+14155550177',
      duration_sec: 30,
      outcome: 'order',
      transcript,
      recording: true,
    });
    const call = await y.get(`/calls/${sid}`);
    expect(call.status).toBe(200);
    expect(call.body).toMatchObject({
      number_id: reissued.body.id,
      phone_number: '+15125550100',
      caller: '+14155550177',
      has_transcript: true,
      has_recording: true,
    });
    expect(Date.parse(call.body.started_at)).toBeGreaterThanOrEqual(Date.parse(reissued.body.created_at));
    expect((await y.get(`/calls/${sid}/transcript`)).body.turns).toEqual(transcript);
    expect((await getBytes(y, `/calls/${sid}/recording`)).status).toBe(200);
    // X, who released it, sees nothing of it: not in the list, not the call, its transcript or its recording.
    expect((await x.get('/calls')).body.data).toEqual([]);
    for (const path of [`/calls/${sid}`, `/calls/${sid}/transcript`, `/calls/${sid}/recording`])
      expect((await x.get(path)).status).toBe(404);
  });

  describe('GET /v1/calls/{call_id}', () => {
    it('answers the call exactly as the list shows it', async () => {
      const listed = (await owner.get('/calls?limit=100')).body.data.find((c: { id: string }) => c.id === callSid);
      const answer = await owner.get(`/calls/${callSid}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(listed);
    });

    it("answers 404 not_found for another account's call and an unknown id alike", async () => {
      const foreign = await stranger.get(`/calls/${callSid}`);
      const unknown = await owner.get('/calls/CA00000000000000000000000000000000');
      for (const answer of [foreign, unknown])
        expect(answer).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
      expect(foreign.body.error.message).toBe(unknown.body.error.message);
    });
  });

  it('refuses a malformed provider report with 400 invalid_request, and the operator route without the token with 401', async () => {
    const bad = await admin.request('POST', '/admin/provider/calls', {
      to: 'not-a-number',
      caller: '+14155550199',
      duration_sec: -1,
      outcome: 'x',
    });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    const anonymous = await fetch(`${system.adminUrl}/admin/provider/calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: number.phone_number, caller: '+14155550199', duration_sec: 1, outcome: 'x' }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('needs an API key for the calls routes', async () => {
    expect((await publicRequest(system, 'GET', '/v1/calls')).status).toBe(401);
    expect((await publicRequest(system, 'GET', `/v1/calls/${callSid}/recording`)).status).toBe(401);
  });

  it('describes the four calls routes in the OpenAPI document, the recording as audio/mpeg', async () => {
    const answer = await publicRequest(system, 'GET', '/v1/openapi.json');
    const paths = answer.body.paths;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/v1/calls',
        '/v1/calls/{call_id}',
        '/v1/calls/{call_id}/transcript',
        '/v1/calls/{call_id}/recording',
      ]),
    );
    expect(paths['/v1/calls/{call_id}/recording'].get.responses['200'].content['audio/mpeg']).toBeDefined();
    expect(paths['/v1/calls'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['limit', 'starting_after', 'number_id', 'since', 'until']),
    );
  });

  it('publishes call.completed to JetStream exactly once for the call', async () => {
    const nc = await connect(testNatsOptions());
    try {
      const jsm = await jetstreamManager(nc);
      const stream = `${system.prefix.toUpperCase()}_CALLS`;
      let sids: string[] = [];
      for (let attempt = 0; attempt < 100; attempt++) {
        const info = await jsm.streams.info(stream);
        sids = [];
        for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
          const msg = await jsm.streams.getMessage(stream, { seq });
          if (msg) sids.push(msg.json<{ data: { call_sid: string } }>().data.call_sid);
        }
        if (sids.includes(callSid)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(sids.filter((sid) => sid === callSid)).toHaveLength(1);
    } finally {
      await nc.close();
    }
  });
});
