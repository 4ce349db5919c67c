import { beepRecordingMp3 } from '../../apps/calls-media/src/telephony/mp3/beep-recording';
import { twilioSignature } from '../stand-ins/provider-signatures';
import { retellCallEvent, retellLiveEvent, signedRetellWebhook } from '../stand-ins/retell/webhook-payloads';
import { RetellStandIn } from '../stand-ins/retell/retell-stand-in';
import { TwilioStandIn } from '../stand-ins/twilio/twilio-stand-in';
import { ApiSession, startSystem, type JsonBody, type RunningSystem } from './support';

jest.setTimeout(90_000);

const PUBLIC_BASE_URL = 'https://api.switchboard.test';

/**
 * Issue 17's calls from real providers (docs/adr/0083): Retell's signed `call_analyzed` becomes the call with its
 * transcript and outcome; Twilio's recording callback brings the MP3, fetched and stored, whichever comes first;
 * Twilio's status callback of a call nobody answered is a missed call. All through the gateway's provider door.
 */
describe('calls reported by Retell and Twilio', () => {
  const retell = new RetellStandIn();
  const twilio = new TwilioStandIn();
  let system: RunningSystem;
  let session: ApiSession;
  let number: { id: string; phone_number: string };

  beforeAll(async () => {
    const [retellUrl, twilioUrl] = await Promise.all([retell.start(), twilio.start()]);
    twilio.stock('415', 5);
    system = await startSystem({
      env: {
        RETELL_API_KEY: retell.apiKey,
        RETELL_API_BASE_URL: retellUrl,
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_API_BASE_URL: twilioUrl,
        PUBLIC_BASE_URL,
        CALL_RECORDING_WAIT_MS: '2000',
        RATE_LIMIT_REQUESTS: '100000',
      },
    });
    session = await ApiSession.create(system);
    number = (await session.post('/numbers', { business_phone: '+14155550123', area_code: '415' })).body;
  });

  afterAll(async () => {
    await system?.stop();
    await Promise.all([retell.stop(), twilio.stop()]);
  });

  const sid = (digit: string) => `CA${digit.repeat(32)}`;
  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetch(`${system.publicUrl}${path}`, { method: 'POST', body, headers });
  const sendRetell = (payload: unknown) => {
    const { body, headers } = signedRetellWebhook(payload, retell.apiKey);
    return post('/provider-webhooks/retell', body, headers);
  };
  const sendTwilio = (callback: 'status' | 'recording', params: Record<string, string>) =>
    post(`/provider-webhooks/twilio/${callback}`, new URLSearchParams(params).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(
        `${PUBLIC_BASE_URL}/provider-webhooks/twilio/${callback}`,
        params,
        twilio.authToken,
      ),
    });
  const recordingCallback = (callSid: string, bytes: Uint8Array) => ({
    AccountSid: twilio.accountSid,
    CallSid: callSid,
    RecordingStatus: 'completed',
    RecordingDuration: '5',
    ...twilio.addRecording(bytes),
  });
  const eventually = async <T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> => {
    let value = await read();
    for (let i = 0; i < 100 && !ok(value); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      value = await read();
    }
    return value;
  };
  const callOf = (callSid: string): Promise<JsonBody> =>
    eventually(
      async () => (await session.get('/calls')).body.data.find((call: { id: string }) => call.id === callSid),
      Boolean,
    );

  it("records the agent's call with its transcript and outcome, and Twilio's recording that came first", async () => {
    const audio = beepRecordingMp3(5);
    expect((await sendTwilio('recording', recordingCallback(sid('a'), audio))).status).toBe(200);
    const analyzed = retellCallEvent('call_analyzed', {
      twilioCallSid: sid('a'),
      from: '+14155550199',
      to: number.phone_number,
      durationMs: 95_000,
      transcript: [
        { role: 'agent', content: 'Thanks for calling, how can I help?' },
        { role: 'user', content: 'A large pizza for pickup, please.' },
      ],
      customAnalysis: { outcome: 'order_placed' },
    });
    expect((await sendRetell(analyzed)).status).toBe(200);
    // Only call_analyzed makes the call: call_ended of the same call is acknowledged and left alone.
    expect((await sendRetell({ ...analyzed, event: 'call_ended' })).status).toBe(200);

    const call = await callOf(sid('a'));
    expect(call).toMatchObject({
      number_id: number.id,
      caller: '+14155550199',
      status: 'completed',
      outcome: 'order_placed',
      duration_sec: 95,
      has_transcript: true,
      has_recording: true,
    });
    const transcript = await session.get(`/calls/${sid('a')}/transcript`);
    expect(transcript.body.turns).toEqual([
      { role: 'agent', text: 'Thanks for calling, how can I help?' },
      { role: 'caller', text: 'A large pizza for pickup, please.' },
    ]);
    const recording = await fetch(`${system.publicUrl}/v1/calls/${sid('a')}/recording`, {
      headers: { authorization: `Bearer ${session.key}`, range: 'bytes=0-99' },
    });
    expect(recording.status).toBe(206);
    expect(recording.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await recording.arrayBuffer())).toEqual(Buffer.from(audio.subarray(0, 100)));
  });

  it('waits for a recording that comes after the report, and records the call once', async () => {
    const analyzed = retellCallEvent('call_analyzed', {
      twilioCallSid: sid('b'),
      from: '+14155550198',
      to: number.phone_number,
    });
    expect((await sendRetell(analyzed)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await session.get('/calls')).body.data.some((call: { id: string }) => call.id === sid('b'))).toBe(false);
    expect((await sendTwilio('recording', recordingCallback(sid('b'), beepRecordingMp3(3)))).status).toBe(200);
    const call = await eventually(
      () => callOf(sid('b')),
      (found) => found?.has_recording === true,
    );
    expect(call).toMatchObject({ outcome: 'answered', has_recording: true });
    expect((await session.get('/calls')).body.data.filter((c: { id: string }) => c.id === sid('b'))).toHaveLength(1);
  });

  it('records the call without audio when no recording comes in time, and joins one that comes later', async () => {
    const analyzed = retellCallEvent('call_analyzed', {
      twilioCallSid: sid('c'),
      from: '+14155550197',
      to: number.phone_number,
      disconnectionReason: 'call_transfer',
    });
    expect((await sendRetell(analyzed)).status).toBe(200);
    const call = await eventually(() => callOf(sid('c')), Boolean);
    expect(call).toMatchObject({ outcome: 'transferred', has_recording: false });
    expect((await sendTwilio('recording', recordingCallback(sid('c'), beepRecordingMp3(2)))).status).toBe(200);
    await eventually(
      () => callOf(sid('c')),
      (found) => found?.has_recording === true,
    );
    const recording = await fetch(`${system.publicUrl}/v1/calls/${sid('c')}/recording`, {
      headers: { authorization: `Bearer ${session.key}` },
    });
    expect(recording.status).toBe(200);
  });

  it("lists a call the agent never answered as missed, from Twilio's status callback", async () => {
    const params = {
      AccountSid: twilio.accountSid,
      CallSid: sid('d'),
      CallStatus: 'no-answer',
      From: '+14155550196',
      To: number.phone_number,
      Direction: 'inbound',
      Timestamp: new Date(Date.now() - 30_000).toUTCString(),
    };
    expect((await sendTwilio('status', params)).status).toBe(200);
    const call = await callOf(sid('d'));
    expect(call).toMatchObject({ status: 'no-answer', outcome: 'missed', duration_sec: 0, has_transcript: false });
    // A completed call's status callback is the agent platform's to report: no call from it.
    const completed = { ...params, CallSid: sid('e'), CallStatus: 'completed', CallDuration: '42' };
    expect((await sendTwilio('status', completed)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await session.get('/calls')).body.data.some((c: { id: string }) => c.id === sid('e'))).toBe(false);
  });

  it("starts a call from Twilio's in-progress status and Retell's live turns; Retell's call_analyzed ends it", async () => {
    const started = new Date(Date.now() - 20_000);
    const params = {
      AccountSid: twilio.accountSid,
      CallSid: sid('f'),
      CallStatus: 'in-progress',
      From: '+14155550195',
      To: number.phone_number,
      Direction: 'inbound',
      Timestamp: started.toUTCString(),
    };
    expect((await sendTwilio('status', params)).status).toBe(200);
    const live = await eventually(
      async () => (await session.get(`/calls/${sid('f')}`)).body,
      (call) => call.status === 'in_progress',
    );
    expect(live).toMatchObject({ caller: '+14155550195', outcome: 'in_progress', duration_sec: 0 });
    const turns = [
      { role: 'agent' as const, content: 'Pizza Planet!' },
      { role: 'user' as const, content: 'One calzone, please.' },
    ];
    const options = { callId: 'call_live_f', twilioCallSid: sid('f'), from: '+14155550195', to: number.phone_number };
    expect((await sendRetell(retellLiveEvent('call_started', { ...options, startedAt: started }))).status).toBe(200);
    expect(
      (await sendRetell(retellLiveEvent('transcript_updated', { ...options, startedAt: started, transcript: turns })))
        .status,
    ).toBe(200);
    const sofar = await eventually(
      async () => (await session.get(`/calls/${sid('f')}/transcript`)).body.turns as unknown[] | undefined,
      (found) => found?.length === 2,
    );
    expect(sofar).toEqual([
      { role: 'agent', text: 'Pizza Planet!' },
      { role: 'caller', text: 'One calzone, please.' },
    ]);
    const analyzed = retellCallEvent('call_analyzed', {
      ...options,
      startedAt: started,
      durationMs: 21_000,
      transcript: turns,
      customAnalysis: { outcome: 'order_placed' },
    });
    expect((await sendRetell(analyzed)).status).toBe(200);
    const ended = await eventually(
      async () => (await session.get(`/calls/${sid('f')}`)).body,
      (call) => call.status === 'completed',
    );
    expect(ended).toMatchObject({ outcome: 'order_placed', duration_sec: 21, has_transcript: true });
  });

  it('answers a ringing call with a recorded dial to the agent', async () => {
    await eventually(
      () => session.get(`/numbers/${number.id}/agent`),
      (answer) => answer.body.status === 'ready',
    );
    const params = {
      AccountSid: twilio.accountSid,
      CallSid: sid('f'),
      From: '+14155550195',
      To: number.phone_number,
      CallStatus: 'ringing',
    };
    const answer = await post('/provider-webhooks/twilio/voice', new URLSearchParams(params).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(
        `${PUBLIC_BASE_URL}/provider-webhooks/twilio/voice`,
        params,
        twilio.authToken,
      ),
    });
    const twiml = await answer.text();
    expect(twiml).toContain('record="record-from-answer-dual"');
    expect(twiml).toContain(`recordingStatusCallback="${PUBLIC_BASE_URL}/provider-webhooks/twilio/recording"`);
    expect(twiml).toMatch(/<Sip>sip:[0-9a-f]{32}@sip\.retellai\.com<\/Sip>/);
  });

  it("keeps Retell's analysis of a call, its custom values checked against the fields the number declares", async () => {
    const fields = [
      { name: 'order_total', type: 'number', description: 'The order total in dollars.' },
      { name: 'size', type: 'enum', description: 'The pizza size.', choices: ['small', 'large'] },
      { name: 'pickup', type: 'boolean', description: 'Whether the order is for pickup.' },
    ];
    const put = await session.request('PUT', `/numbers/${number.id}/agent`, { analysis_fields: fields });
    expect(put.status).toBe(200);
    // The fields reach Retell's agent as its post-call analysis, in Retell's shape.
    await eventually(
      async () => (await session.get(`/numbers/${number.id}/agent`)).body.status,
      (status) => status === 'ready',
    );
    const agent = [...retell.agents.values()].find((a) => a.agent_name === `Switchboard ${number.phone_number}`);
    expect(agent?.post_call_analysis_data).toEqual(fields);
    // ... and reach calls-media a moment later: until then a call's custom values are checked against none.
    let analysis: JsonBody = {};
    for (let attempt = 0; attempt < 50 && analysis.custom?.order_total === undefined; attempt++) {
      const callSid = `CA${attempt.toString(16).padStart(32, 'e')}`;
      const analyzed = retellCallEvent('call_analyzed', {
        twilioCallSid: callSid,
        from: '+14155550199',
        to: number.phone_number,
        customAnalysis: { outcome: 'order_placed', order_total: 23.5, size: 'large', pickup: 'yes', mood: 'happy' },
      });
      expect((await sendRetell(analyzed)).status).toBe(200);
      analysis = (await callOf(callSid)).analysis;
    }
    expect(analysis).toEqual({
      summary: 'The caller placed an order.',
      sentiment: 'positive',
      successful: true,
      // `pickup` is not a boolean and `mood` was never declared: both dropped, never kept as something else.
      custom: { order_total: 23.5, size: 'large' },
    });
  });
});
