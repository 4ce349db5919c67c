import type { AnalysisFieldDefinition } from '@switchboard/contracts';
import { RetellStandIn } from '../../../../test/stand-ins/retell/retell-stand-in';
import { AgentRefused, AgentRuntimeUnavailable, type AgentDefinition, type AgentRuntime } from './agent-runtime.port';
import { DEFAULT_GREETING } from './agent-prompt';
import { RetellAgentRuntime, createRetellClient } from './retell-agent-runtime.adapter';

jest.setTimeout(30_000);

/** The Retell agent runtime against the Retell stand-in: what it sends and how it reads Retell's answers. */
describe('RetellAgentRuntime', () => {
  const retell = new RetellStandIn();
  let runtime: AgentRuntime;
  const live = { livemode: true };
  const analysisFields: AnalysisFieldDefinition[] = [
    { name: 'order_total', type: 'number', description: 'The order total in US dollars, if any.' },
    { name: 'order_kind', type: 'enum', description: 'How the order is collected.', choices: ['pickup', 'delivery'] },
    { name: 'wants_callback', type: 'boolean', description: 'Whether the caller asked to be called back.' },
    { name: 'allergies', type: 'string', description: 'Allergies the caller mentioned.' },
  ];
  const definition: AgentDefinition = {
    phoneNumber: '+14155550200',
    businessPhone: '+14155550123',
    greeting: 'Thanks for calling Pizza Planet!',
    instructions: 'We are open 11 to 10. Take pickup orders.',
    analysisFields,
  };
  /** The fields as Retell's `post_call_analysis_data` items (its item types; `choices` with enum only). */
  const retellItems = [
    { type: 'number', name: 'order_total', description: 'The order total in US dollars, if any.' },
    { type: 'enum', name: 'order_kind', description: 'How the order is collected.', choices: ['pickup', 'delivery'] },
    { type: 'boolean', name: 'wants_callback', description: 'Whether the caller asked to be called back.' },
    { type: 'string', name: 'allergies', description: 'Allergies the caller mentioned.' },
  ];

  beforeAll(async () => {
    const url = await retell.start();
    runtime = new RetellAgentRuntime(await createRetellClient({ apiKey: retell.apiKey, apiBaseUrl: new URL(url) }), {
      webhookUrl: 'https://api.example.com/provider-webhooks/retell',
      voiceId: '11labs-Adrian',
    });
  });

  afterAll(() => retell.stop());

  beforeEach(() => {
    retell.requests.length = 0;
    retell.faults.length = 0;
  });

  it('makes an LLM from the settings and an agent on it whose webhook is our provider door', async () => {
    const refs = await runtime.upsertAgent(definition, null, live);
    expect(refs.agentRef).toMatch(/^agent_/);
    expect(refs.llmRef).toMatch(/^llm_/);
    const llm = retell.llms.get(refs.llmRef!)!;
    expect(llm.begin_message).toBe('Thanks for calling Pizza Planet!');
    expect(llm.general_prompt).toEqual(expect.stringContaining('We are open 11 to 10.'));
    expect(llm.general_tools).toEqual([
      expect.objectContaining({
        type: 'transfer_call',
        transfer_destination: { type: 'predefined', number: '+14155550123' },
        transfer_option: { type: 'cold_transfer' },
      }),
      expect.objectContaining({ type: 'end_call' }),
    ]);
    expect(retell.agents.get(refs.agentRef)).toMatchObject({
      response_engine: { type: 'retell-llm', llm_id: refs.llmRef },
      voice_id: '11labs-Adrian',
      webhook_url: 'https://api.example.com/provider-webhooks/retell',
    });
  });

  it("asks for the live call webhooks (start, transcript updates) and the analysed call, not Retell's default", async () => {
    const refs = await runtime.upsertAgent(definition, null, live);
    const create = retell.requests.find((request) => request.path === '/create-agent')!;
    expect(create.body.webhook_events).toEqual(['call_started', 'transcript_updated', 'call_analyzed']);
    expect(retell.agents.get(refs.agentRef)!.webhook_events).toEqual(create.body.webhook_events);
  });

  it("makes the agent with the number's analysis fields as Retell's post_call_analysis_data, in order", async () => {
    const refs = await runtime.upsertAgent(definition, null, live);
    const create = retell.requests.find((request) => request.path === '/create-agent')!;
    expect(create.body.post_call_analysis_data).toEqual(retellItems);
    expect(retell.agents.get(refs.agentRef)!.post_call_analysis_data).toEqual(retellItems);
  });

  it('updates the LLM in place when the settings change, with the default greeting when none is set', async () => {
    const refs = await runtime.upsertAgent(definition, null, live);
    retell.requests.length = 0;
    const again = await runtime.upsertAgent({ ...definition, greeting: null }, refs, live);
    expect(again).toEqual(refs);
    expect(retell.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `PATCH /update-retell-llm/${refs.llmRef}`,
      `PATCH /update-agent/${refs.agentRef}`,
    ]);
    expect(retell.llms.get(refs.llmRef!)!.begin_message).toBe(DEFAULT_GREETING);
  });

  it('sets the analysis fields (changed, reordered, and removed) and the webhook events at every update', async () => {
    const refs = await runtime.upsertAgent({ ...definition, analysisFields: [] }, null, live);
    expect(retell.agents.get(refs.agentRef)!.post_call_analysis_data).toEqual([]);

    const reordered = [analysisFields[1], { ...analysisFields[0], description: 'The total, tax included.' }];
    await runtime.upsertAgent({ ...definition, analysisFields: reordered }, refs, live);
    const update = retell.requests.filter((request) => request.path === `/update-agent/${refs.agentRef}`).at(-1)!;
    expect(update.body).toEqual({
      post_call_analysis_data: [retellItems[1], { ...retellItems[0], description: 'The total, tax included.' }],
      // Sent again too, so an agent made before the live call webhooks gets them at its next push.
      webhook_events: ['call_started', 'transcript_updated', 'call_analyzed'],
    });
    expect(retell.agents.get(refs.agentRef)!.post_call_analysis_data).toEqual(update.body.post_call_analysis_data);

    await runtime.upsertAgent({ ...definition, analysisFields: [] }, refs, live);
    expect(retell.agents.get(refs.agentRef)!.post_call_analysis_data).toEqual([]);
  });

  it('reads a refused agent update as refused (the LLM was updated; the next push sends both again)', async () => {
    const refs = await runtime.upsertAgent(definition, null, live);
    retell.agents.delete(refs.agentRef); // deleted at Retell behind our back: its update answers 404
    await expect(runtime.upsertAgent(definition, refs, live)).rejects.toThrow(AgentRefused);
  });

  it("registers a ringing call with the number's agent and answers Retell's SIP address for it", async () => {
    const refs = await runtime.upsertAgent(definition, null, live);
    const callSid = `CA${'1'.repeat(32)}`;
    const { sipUri } = await runtime.answerCall(refs, { callSid, from: '+14155550199', to: '+14155550200' }, live);
    const call = retell.calls.at(-1)!;
    expect(sipUri).toBe(`sip:${String(call.call_id)}@sip.retellai.com`);
    expect(call).toMatchObject({
      agent_id: refs.agentRef,
      from_number: '+14155550199',
      to_number: '+14155550200',
      direction: 'inbound',
      metadata: { twilio_call_sid: callSid },
    });
  });

  it('deletes the agent and its LLM; deleting them again succeeds', async () => {
    const refs = await runtime.upsertAgent(definition, null, live);
    await runtime.deleteAgent(refs, live);
    expect(retell.agents.has(refs.agentRef)).toBe(false);
    expect(retell.llms.has(refs.llmRef!)).toBe(false);
    await expect(runtime.deleteAgent(refs, live)).resolves.toBeUndefined();
    // Retell answers both repeated deletes 422, as its API reference says.
    expect(
      retell.requests.filter((request) => request.method === 'DELETE').map((request) => request.path.split('/')[1]),
    ).toEqual(['delete-agent', 'delete-retell-llm', 'delete-agent', 'delete-retell-llm']);
  });

  it('still deletes the LLM when the agent is already gone (Retell answers 422)', async () => {
    const refs = await runtime.upsertAgent(definition, null, live);
    retell.agents.delete(refs.agentRef); // deleted before, e.g. by a try that did not get to the LLM
    await expect(runtime.deleteAgent(refs, live)).resolves.toBeUndefined();
    expect(retell.llms.has(refs.llmRef!)).toBe(false);
  });

  it('reads a refusal as refused, and 429 or 5xx twice as unavailable', async () => {
    retell.faults.push('bad_request');
    await expect(runtime.upsertAgent(definition, null, live)).rejects.toThrow(AgentRefused);
    retell.faults.push('server_error', 'server_error');
    await expect(runtime.upsertAgent(definition, null, live)).rejects.toThrow(AgentRuntimeUnavailable);
    retell.faults.push('rate_limited', 'rate_limited');
    await expect(runtime.upsertAgent(definition, null, live)).rejects.toThrow(AgentRuntimeUnavailable);
    // One 500 is retried once by the SDK, and goes through.
    retell.faults.push('server_error');
    await expect(runtime.upsertAgent(definition, null, live)).resolves.toMatchObject({ agentRef: expect.any(String) });
  });
});
