import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { testNatsOptions } from '@switchboard/testing';
import { RetellStandIn } from '../stand-ins/retell/retell-stand-in';
import { twilioSignature } from '../stand-ins/provider-signatures';
import { TwilioStandIn } from '../stand-ins/twilio/twilio-stand-in';
import { ApiSession, startSystem, type RunningSystem } from './support';

jest.setTimeout(90_000);

const PUBLIC_BASE_URL = 'https://api.switchboard.test';

/**
 * Issue 17's agent runtime (docs/adr/0083): a live number gets a Retell agent made from its settings (the
 * NumberCreate extension), kept in step when they change and removed with the number; Twilio's voice URL hands a
 * ringing call to that agent over SIP. Retell and Twilio are played by their stand-ins.
 */
describe('agents on Retell, calls through the voice URL', () => {
  const retell = new RetellStandIn();
  const twilio = new TwilioStandIn();
  let system: RunningSystem;
  const body = { business_phone: '+14155550123', area_code: '415' };

  beforeAll(async () => {
    const [retellUrl, twilioUrl] = await Promise.all([retell.start(), twilio.start()]);
    twilio.stock('415', 40);
    system = await startSystem({
      env: {
        RETELL_API_KEY: retell.apiKey,
        RETELL_API_BASE_URL: retellUrl,
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_API_BASE_URL: twilioUrl,
        PUBLIC_BASE_URL,
      },
    });
  });

  afterAll(async () => {
    await system?.stop();
    await Promise.all([retell.stop(), twilio.stop()]);
  });

  const eventually = async <T>(read: () => Promise<T> | T, ok: (value: T) => boolean): Promise<T> => {
    let value = await read();
    for (let i = 0; i < 100 && !ok(value); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      value = await read();
    }
    return value;
  };
  const agentFor = (phone: string) =>
    [...retell.agents.values()].find((agent) => agent.agent_name === `Switchboard ${phone}`);
  const voice = (params: Record<string, string>) =>
    fetch(`${system.publicUrl}/provider-webhooks/twilio/voice`, {
      method: 'POST',
      body: new URLSearchParams(params).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(
          `${PUBLIC_BASE_URL}/provider-webhooks/twilio/voice`,
          params,
          twilio.authToken,
        ),
      },
    });

  it("makes a live number's agent from its settings, and shows them with their status", async () => {
    const session = await ApiSession.create(system);
    const created = await session.post('/numbers', {
      ...body,
      agent: { greeting: 'Pizza Planet, how can I help?', instructions: 'Open 11 to 10.' },
    });
    expect(created.status).toBe(201);
    const agent = await eventually(() => agentFor(created.body.phone_number), Boolean);
    const llm = retell.llms.get((agent!.response_engine as { llm_id: string }).llm_id)!;
    expect(llm.begin_message).toBe('Pizza Planet, how can I help?');
    expect(agent!.webhook_url).toBe(`${PUBLIC_BASE_URL}/provider-webhooks/retell`);
    const settings = await eventually(
      () => session.get(`/numbers/${created.body.id}/agent`),
      (answer) => answer.body.status === 'ready',
    );
    expect(settings.body).toEqual({
      greeting: 'Pizza Planet, how can I help?',
      instructions: 'Open 11 to 10.',
      analysis_fields: [],
      status: 'ready',
      livemode: true,
    });
  });

  it('pushes new settings and a new business phone to the agent', async () => {
    const session = await ApiSession.create(system);
    const created = (await session.post('/numbers', body)).body;
    const agent = (await eventually(() => agentFor(created.phone_number), Boolean))!;
    const llmId = (agent.response_engine as { llm_id: string }).llm_id;
    expect(retell.llms.get(llmId)!.begin_message).toBe('Hello, thanks for calling. How can I help you today?');

    const put = await session.request('PUT', `/numbers/${created.id}/agent`, { greeting: 'Hi from the new greeting' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ greeting: 'Hi from the new greeting', instructions: null, status: 'pending' });
    await eventually(
      () => retell.llms.get(llmId)!.begin_message,
      (text) => text === 'Hi from the new greeting',
    );

    expect((await session.request('PATCH', `/numbers/${created.id}`, { business_phone: '+14155550999' })).status).toBe(
      200,
    );
    const transferTo = () =>
      (retell.llms.get(llmId)!.general_tools as { transfer_destination?: { number: string } }[])[0].transfer_destination
        ?.number;
    expect(await eventually(transferTo, (number) => number === '+14155550999')).toBe('+14155550999');
  });

  it('refuses settings that are too long or not text, changing nothing', async () => {
    const session = await ApiSession.create(system);
    const created = (await session.post('/numbers', body)).body;
    const long = await session.request('PUT', `/numbers/${created.id}/agent`, { greeting: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('invalid_request');
    expect((await session.request('PUT', `/numbers/${created.id}/agent`, { instructions: 42 })).status).toBe(400);
    expect((await session.post('/numbers', { ...body, agent: 'be nice' })).status).toBe(400);
    expect((await session.get(`/numbers/${created.id}/agent`)).body.greeting).toBeNull();
    const stranger = await ApiSession.create(system);
    expect((await stranger.get(`/numbers/${created.id}/agent`)).status).toBe(404);
  });

  describe('analysis fields', () => {
    const fields = [
      { name: 'order_total', type: 'number', description: 'The order total in US dollars, if any.' },
      { name: 'order_kind', type: 'enum', description: 'How the order is collected.', choices: ['pickup', 'delivery'] },
      { name: 'wants_callback', type: 'boolean', description: 'Whether the caller asked to be called back.' },
      { name: 'allergies', type: 'string', description: 'Allergies the caller mentioned.' },
    ];
    /** The same fields as Retell's `post_call_analysis_data` items. */
    const retellItems = fields.map(({ name, type, description, choices }) => ({
      type,
      name,
      description,
      ...(choices ? { choices } : {}),
    }));
    const analysisOf = (phone: string) => agentFor(phone)?.post_call_analysis_data;
    /** The `number.analysis_fields.changed` events numbers-billing published for the number, oldest first. */
    const analysisEvents = async (numberId: string) => {
      const nc = await connect(testNatsOptions());
      try {
        const jsm = await jetstreamManager(nc);
        const stream = `${system.prefix.toUpperCase()}_NUMBERS`;
        const info = await jsm.streams.info(stream);
        const events: { type: string; data: { number_id: string; version: number; analysis_fields: unknown[] } }[] = [];
        for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
          const msg = await jsm.streams.getMessage(stream, { seq });
          const event = msg?.json<(typeof events)[number]>();
          if (event?.type === 'number.analysis_fields.changed' && event.data.number_id === numberId) events.push(event);
        }
        return events.map((event) => event.data);
      } finally {
        await nc.close();
      }
    };

    it("answers the fields a PUT declares, in order, shows them on GET, and sets them on the number's Retell agent", async () => {
      const session = await ApiSession.create(system);
      const created = (await session.post('/numbers', body)).body;
      await eventually(() => agentFor(created.phone_number), Boolean);
      expect(analysisOf(created.phone_number)).toEqual([]);

      const put = await session.request('PUT', `/numbers/${created.id}/agent`, {
        greeting: 'Pizza Planet!',
        analysis_fields: fields,
      });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ greeting: 'Pizza Planet!', analysis_fields: fields, status: 'pending' });
      const settings = await eventually(
        () => session.get(`/numbers/${created.id}/agent`),
        (answer) => answer.body.status === 'ready',
      );
      expect(settings.body.analysis_fields).toEqual(fields);
      expect(analysisOf(created.phone_number)).toEqual(retellItems);
      const published = await eventually(
        () => analysisEvents(created.id),
        (events) => events.length === 1,
      );
      expect(published).toEqual([
        expect.objectContaining({ account_id: session.accountId, analysis_fields: fields, version: 2 }),
      ]);

      // The PUT replaces: fields left out are none, at Retell too.
      const cleared = await session.request('PUT', `/numbers/${created.id}/agent`, { greeting: 'Pizza Planet!' });
      expect(cleared.body.analysis_fields).toEqual([]);
      expect(
        await eventually(
          () => analysisOf(created.phone_number),
          (items) => Array.isArray(items) && items.length === 0,
        ),
      ).toEqual([]);
      expect(
        (
          await eventually(
            () => analysisEvents(created.id),
            (events) => events.length === 2,
          )
        ).at(-1),
      ).toMatchObject({
        analysis_fields: [],
        version: 3,
      });
    });

    it('makes the agent with the fields given at creation (`agent` on POST /v1/numbers)', async () => {
      const session = await ApiSession.create(system);
      const created = await session.post('/numbers', { ...body, agent: { analysis_fields: fields.slice(0, 2) } });
      expect(created.status).toBe(201);
      await eventually(() => agentFor(created.body.phone_number), Boolean);
      expect(analysisOf(created.body.phone_number)).toEqual(retellItems.slice(0, 2));
      expect((await session.get(`/numbers/${created.body.id}/agent`)).body.analysis_fields).toEqual(fields.slice(0, 2));
      expect(
        await eventually(
          () => analysisEvents(created.body.id),
          (events) => events.length === 1,
        ),
      ).toEqual([expect.objectContaining({ analysis_fields: fields.slice(0, 2), version: 1 })]);
    });

    it('refuses fields that clash at creation before a number is bought or charged', async () => {
      const session = await ApiSession.create(system);
      const refused = await session.post('/numbers', {
        ...body,
        agent: { analysis_fields: [fields[0], { ...fields[0], type: 'string' }] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'invalid_request' });
      expect(refused.body.error.message).toMatch(/^agent\.analysis_fields\[1\]\.name /);
      expect((await session.get('/numbers')).body.data).toEqual([]);
    });

    const field = (overrides: Record<string, unknown>) => ({ ...fields[0], ...overrides });
    const choices = (count: number) => Array.from({ length: count }, (_, i) => `choice_${i}`);
    it.each<[string, unknown, string]>([
      ['two fields with one name', [fields[0], field({ type: 'string' })], 'analysis_fields[1].name'],
      ['a name not in snake_case', [field({ name: 'OrderTotal' })], 'analysis_fields[0].name'],
      ['a reserved name', [fields[1], field({ name: 'outcome' })], 'analysis_fields[1].name'],
      ['an enum without choices', [field({ type: 'enum' })], 'analysis_fields[0].choices'],
      ['an enum with 51 choices', [field({ type: 'enum', choices: choices(51) })], 'analysis_fields[0].choices'],
      ['an enum choice given twice', [field({ type: 'enum', choices: ['a', 'b', 'a'] })], 'analysis_fields[0].choices'],
      ['choices on a string field', [field({ type: 'string', choices: ['a'] })], 'analysis_fields[0].choices'],
      ['21 fields', Array.from({ length: 21 }, (_, i) => field({ name: `field_${i}` })), 'analysis_fields'],
      ['a field without description', [{ name: 'order_total', type: 'number' }], 'analysis_fields[0].description'],
      ['an unknown type', [field({ type: 'date' })], 'analysis_fields[0].type'],
    ])(
      'refuses %s with 400 invalid_request naming the parameter, changing nothing',
      async (_, analysisFields, param) => {
        const session = await ApiSession.create(system);
        const created = (await session.post('/numbers', body)).body;
        const path = `/numbers/${created.id}/agent`;
        expect((await session.request('PUT', path, { greeting: 'Kept', analysis_fields: fields })).status).toBe(200);

        const refused = await session.request('PUT', path, { greeting: 'Not kept', analysis_fields: analysisFields });
        expect(refused.status).toBe(400);
        expect(refused.body.error.code).toBe('invalid_request');
        expect(refused.body.error.message).toMatch(new RegExp(`^${param.replace(/[[\].]/g, '\\$&')} `));
        expect((await session.get(path)).body).toMatchObject({ greeting: 'Kept', analysis_fields: fields });
      },
    );
  });

  it('hands a call ringing the number to its agent over SIP, and refuses one to a number we do not have', async () => {
    const session = await ApiSession.create(system);
    const created = (await session.post('/numbers', body)).body;
    await eventually(
      () => session.get(`/numbers/${created.id}/agent`),
      (answer) => answer.body.status === 'ready',
    );
    const callSid = `CA${'2'.repeat(32)}`;
    const answer = await voice({
      AccountSid: twilio.accountSid,
      CallSid: callSid,
      From: '+14155550199',
      To: created.phone_number,
      CallStatus: 'ringing',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/xml/);
    const call = retell.calls.find(
      (registered) => (registered.metadata as { twilio_call_sid: string }).twilio_call_sid === callSid,
    )!;
    const twiml = await answer.text();
    expect(twiml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?><Response><Dial [^>]*record="record-from-answer-dual"/,
    );
    expect(twiml).toContain(`<Sip>sip:${String(call.call_id)}@sip.retellai.com</Sip></Dial></Response>`);
    expect(call).toMatchObject({ from_number: '+14155550199', to_number: created.phone_number, direction: 'inbound' });

    const unknown = await voice({
      AccountSid: twilio.accountSid,
      CallSid: `CA${'3'.repeat(32)}`,
      From: '+14155550199',
      To: '+19995550100',
      CallStatus: 'ringing',
    });
    expect(await unknown.text()).toContain('<Reject reason="busy"/>');
    // Not Twilio's signature: refused before anything is asked.
    const forged = await fetch(`${system.publicUrl}/provider-webhooks/twilio/voice`, {
      method: 'POST',
      body: new URLSearchParams({ CallSid: callSid, To: created.phone_number }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'bm9wZQ==' },
    });
    expect(forged.status).toBe(401);
  });

  it('removes the agent at Retell when the number is released', async () => {
    const session = await ApiSession.create(system);
    const created = (await session.post('/numbers', body)).body;
    const agent = (await eventually(() => agentFor(created.phone_number), Boolean))!;
    expect((await session.delete(`/numbers/${created.id}`)).status).toBe(200);
    await eventually(
      () => retell.agents.has(String(agent.agent_id)),
      (present) => !present,
    );
    expect(retell.agents.has(String(agent.agent_id))).toBe(false);
    expect((await session.request('PUT', `/numbers/${created.id}/agent`, { greeting: 'too late' })).status).toBe(409);
  });

  it("never makes a test account's agent at Retell", async () => {
    const live = await ApiSession.create(system);
    const test = await live.testMode();
    const created = (await test.post('/numbers', body)).body;
    const settings = await eventually(
      () => test.get(`/numbers/${created.id}/agent`),
      (answer) => answer.body.status === 'ready',
    );
    expect(settings.body).toMatchObject({ status: 'ready', livemode: false });
    expect(agentFor(created.phone_number)).toBeUndefined();
  });
});
