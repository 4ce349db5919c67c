import type Retell from 'retell-sdk';
import type Stripe from 'stripe';
import {
  ANALYSIS_ITEM_KEYS,
  ANALYSIS_ITEM_REQUIRED,
  RetellStandIn,
} from '../../../test/stand-ins/retell/retell-stand-in';
import {
  CUSTOMER_FIELDS,
  PAYMENT_INTENT_FIELDS,
  StripeStandIn,
  type StandInCustomer,
  type StandInPaymentIntent,
} from '../../../test/stand-ins/stripe/stripe-stand-in';

jest.setTimeout(30_000);

/** The keys of T that its published schema requires (not optional). */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** Compiles only when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(proof: Same<A, B>) => proof;

/** What the SDK's types say an answer may hold (every key) and must hold (the required ones), checked by tsc. */
function fields<T>() {
  return <const Required extends readonly RequiredKeys<T>[], const All extends readonly (keyof T)[]>(
    required: Required,
    all: All,
  ) => ({ required: required as readonly string[], all: [...required, ...all] as readonly string[] });
}

// Retell's published schema (retell-sdk's types, generated from its OpenAPI description): the required keys listed
// here must be exactly the SDK's, or this file does not compile.
const RETELL_LLM_REQUIRED = ['llm_id', 'last_modification_timestamp'] as const;
same<RequiredKeys<Retell.LlmResponse>, (typeof RETELL_LLM_REQUIRED)[number]>(true);
const RETELL_LLM = fields<Retell.LlmResponse>()(RETELL_LLM_REQUIRED, [
  'version',
  'general_prompt',
  'begin_message',
  'general_tools',
]);
const RETELL_AGENT_REQUIRED = [
  'agent_id',
  'last_modification_timestamp',
  'response_engine',
  'version',
  'voice_id',
] as const;
same<RequiredKeys<Retell.AgentResponse>, (typeof RETELL_AGENT_REQUIRED)[number]>(true);
const RETELL_AGENT = fields<Retell.AgentResponse>()(RETELL_AGENT_REQUIRED, [
  'agent_name',
  'webhook_url',
  'post_call_analysis_data',
]);
// The `post_call_analysis_data` items the stand-in takes on create and update: each type's keys, and its required
// keys, exactly those of Retell's item types for both requests.
type AnalysisItem<P extends { post_call_analysis_data?: unknown }, T> = Extract<
  NonNullable<P['post_call_analysis_data']> extends (infer I)[] ? I : never,
  { type: T }
>;
type ItemKeysMatch<P extends { post_call_analysis_data?: unknown }> = {
  [T in keyof typeof ANALYSIS_ITEM_KEYS]: [
    Same<keyof AnalysisItem<P, T>, (typeof ANALYSIS_ITEM_KEYS)[T][number]>,
    Same<RequiredKeys<AnalysisItem<P, T>>, (typeof ANALYSIS_ITEM_REQUIRED)[T][number]>,
  ];
};
same<ItemKeysMatch<Retell.AgentCreateParams>, Record<keyof typeof ANALYSIS_ITEM_KEYS, [true, true]>>(true);
same<ItemKeysMatch<Retell.AgentUpdateParams>, Record<keyof typeof ANALYSIS_ITEM_KEYS, [true, true]>>(true);
const RETELL_CALL_REQUIRED = [
  'agent_id',
  'agent_version',
  'call_id',
  'call_status',
  'call_type',
  'direction',
  'from_number',
  'to_number',
] as const;
same<RequiredKeys<Retell.Call.PhoneCallResponse>, (typeof RETELL_CALL_REQUIRED)[number]>(true);
const RETELL_CALL = fields<Retell.Call.PhoneCallResponse>()(RETELL_CALL_REQUIRED, ['metadata']);
// Stripe's error body (StripeRawError): every key the stand-in answers is one of Stripe's.
const STRIPE_ERROR_FIELDS = [
  'type',
  'code',
  'decline_code',
  'message',
  'payment_intent',
] as const satisfies readonly (keyof Stripe.StripeRawError)[];

/** Keys of `answer` that the schema does not have, and required keys it lacks: both empty when it conforms. */
function against(answer: object, schema: { required: readonly string[]; all: readonly string[] }) {
  const keys = Object.keys(answer);
  return {
    unknown: keys.filter((key) => !schema.all.includes(key)),
    missing: schema.required.filter((key) => !keys.includes(key)),
  };
}

/**
 * The stand-ins' answers against the providers' published schemas, so a stand-in cannot quietly answer what the
 * provider never would: Stripe's objects are typed with stripe-node's types in the stand-in itself (`Pick`s of
 * `Stripe.PaymentIntent`, `Stripe.Customer`), and here each answer's keys are checked to be theirs; Retell's answers
 * must hold every field retell-sdk's types require and none they do not know. Status codes are Stripe's and
 * Retell's documented ones (a replayed 500, a 422 for a repeated delete).
 */
describe('provider stand-ins answer in the providers published shapes', () => {
  const stripe = new StripeStandIn();
  const retell = new RetellStandIn();

  beforeAll(async () => {
    await stripe.start();
    await retell.start();
  });

  afterAll(async () => {
    await stripe.stop();
    await retell.stop();
  });

  const stripeCall = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    fetch(`${stripe.url}${path}`, {
      method,
      body,
      headers: {
        authorization: `Bearer ${stripe.secretKey}`,
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
    });
  const retellCall = (method: string, path: string, body?: unknown) =>
    fetch(`${retell.url}${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { authorization: `Bearer ${retell.apiKey}`, 'content-type': 'application/json' },
    });

  it("Stripe: customers, PaymentIntents, lists and errors hold only Stripe's fields", async () => {
    const customer = stripe.addCustomer('acct_schema000000000000001');
    const query = new URLSearchParams({ query: "metadata['switchboard_account_id']:'acct_schema000000000000001'" });
    const search = (await (await stripeCall('GET', `/v1/customers/search?${query.toString()}`)).json()) as {
      data: StandInCustomer[];
    };
    expect(search.data.map((found) => found.id)).toEqual([customer.id]);
    expect(against(search.data[0], { required: CUSTOMER_FIELDS, all: CUSTOMER_FIELDS })).toEqual({
      unknown: [],
      missing: [],
    });

    const form = new URLSearchParams({
      amount: '500',
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      'metadata[switchboard_top_up_attempt]': 'schema-1',
    }).toString();
    const created = (await (await stripeCall('POST', '/v1/payment_intents', form)).json()) as StandInPaymentIntent;
    expect(against(created, { required: PAYMENT_INTENT_FIELDS, all: PAYMENT_INTENT_FIELDS })).toEqual({
      unknown: [],
      missing: [],
    });
    const list = (await (await stripeCall('GET', `/v1/payment_intents?customer=${customer.id}`)).json()) as {
      object: string;
      data: StandInPaymentIntent[];
    };
    expect(list).toMatchObject({ object: 'list', has_more: false, data: [{ id: created.id }] });

    stripe.faults.push('card_declined');
    const declined = await stripeCall('POST', '/v1/payment_intents', form.replace('500', '600'));
    expect(declined.status).toBe(402);
    const error = ((await declined.json()) as { error: Record<string, unknown> }).error;
    expect(Object.keys(error).filter((key) => !(STRIPE_ERROR_FIELDS as readonly string[]).includes(key))).toEqual([]);

    // A 500 answered to a keyed request is saved and replayed, and says not to retry.
    stripe.faults.push('server_error');
    const first = await stripeCall('POST', '/v1/payment_intents', form.replace('500', '700'), {
      'idempotency-key': 'schema-500',
    });
    const again = await stripeCall('POST', '/v1/payment_intents', form.replace('500', '700'), {
      'idempotency-key': 'schema-500',
    });
    expect([first.status, first.headers.get('stripe-should-retry')]).toEqual([500, 'false']);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([500, 'true']);
  });

  it("Retell: LLMs, agents (made and updated) and registered calls hold every field retell-sdk requires and none it doesn't know", async () => {
    const llm = (await (
      await retellCall('POST', '/create-retell-llm', { general_prompt: 'Answer the phone.', begin_message: 'Hello' })
    ).json()) as Record<string, unknown>;
    expect(against(llm, RETELL_LLM)).toEqual({ unknown: [], missing: [] });
    const agent = (await (
      await retellCall('POST', '/create-agent', {
        response_engine: { type: 'retell-llm', llm_id: llm.llm_id },
        voice_id: '11labs-Adrian',
        agent_name: 'Switchboard +14155550100',
        webhook_url: 'https://api.example.com/provider-webhooks/retell',
        post_call_analysis_data: [{ type: 'string', name: 'order_total', description: 'The order total.' }],
      })
    ).json()) as Record<string, unknown>;
    expect(against(agent, RETELL_AGENT)).toEqual({ unknown: [], missing: [] });
    const analysis = [
      { type: 'enum', name: 'order_kind', description: 'Pickup or delivery.', choices: ['pickup', 'delivery'] },
      { type: 'boolean', name: 'wants_callback', description: 'Whether the caller asked to be called back.' },
      { type: 'number', name: 'party_size', description: 'How many people the booking is for.' },
    ];
    const update = await retellCall('PATCH', `/update-agent/${String(agent.agent_id)}`, {
      post_call_analysis_data: analysis,
    });
    expect(update.status).toBe(200);
    const updated = (await update.json()) as Record<string, unknown>;
    expect(against(updated, RETELL_AGENT)).toEqual({ unknown: [], missing: [] });
    expect(updated.post_call_analysis_data).toEqual(analysis);
    // Items not of Retell's item types are refused, as Retell refuses a body its schema does not take.
    for (const bad of [
      [{ type: 'enum', name: 'order_kind', description: 'Pickup or delivery.' }],
      [{ type: 'string', name: 'order_total', description: 'The total.', choices: ['a'] }],
      [{ type: 'date', name: 'pickup_at', description: 'When.' }],
      [{ type: 'string', name: 'order_total' }],
    ]) {
      const refused = await retellCall('PATCH', `/update-agent/${String(agent.agent_id)}`, {
        post_call_analysis_data: bad,
      });
      expect(refused.status).toBe(400);
    }
    expect((await retellCall('PATCH', '/update-agent/agent_gone', { post_call_analysis_data: [] })).status).toBe(404);
    const call = (await (
      await retellCall('POST', '/v2/register-phone-call', {
        agent_id: agent.agent_id,
        from_number: '+14155550199',
        to_number: '+14155550100',
        direction: 'inbound',
        metadata: { twilio_call_sid: `CA${'1'.repeat(32)}` },
      })
    ).json()) as Record<string, unknown>;
    expect(against(call, RETELL_CALL)).toEqual({ unknown: [], missing: [] });

    // Deletes answer 204, and 422 once the agent or LLM is gone (Retell lists no 404 for them).
    expect((await retellCall('DELETE', `/delete-agent/${String(agent.agent_id)}`)).status).toBe(204);
    expect((await retellCall('DELETE', `/delete-agent/${String(agent.agent_id)}`)).status).toBe(422);
    expect((await retellCall('DELETE', `/delete-retell-llm/${String(llm.llm_id)}`)).status).toBe(204);
    expect((await retellCall('DELETE', `/delete-retell-llm/${String(llm.llm_id)}`)).status).toBe(422);
  });
});
