import type { AnalysisFieldDefinition } from '@switchboard/contracts';
import type Retell from 'retell-sdk';
import { agentGreeting, agentPrompt } from './agent-prompt';
import {
  AgentRefused,
  AgentRuntimeUnavailable,
  type AgentDefinition,
  type AgentRefs,
  type AgentRuntime,
  type RingingCall,
} from './agent-runtime.port';

/** Retell's SIP server: a registered call is dialled at `sip:<call_id>@<host>` ("dial to SIP URI"). */
export const RETELL_SIP_HOST = 'sip.retellai.com';

/**
 * The call webhooks an agent sends to our provider-webhook door: the start of a call and each transcript update (live
 * calls), and the analysed call (the call itself). Retell's default sends `call_ended`, which we do not use, and
 * leaves out `transcript_updated`.
 */
export const RETELL_WEBHOOK_EVENTS: NonNullable<Retell.AgentCreateParams['webhook_events']> = [
  'call_started',
  'transcript_updated',
  'call_analyzed',
];

export interface RetellAgentOptions {
  /** Where the agent's call webhooks go: `PUBLIC_BASE_URL/provider-webhooks/retell` (ADR 0083). */
  webhookUrl: string;
  /** The voice the agent speaks with (`RETELL_VOICE_ID`). */
  voiceId: string;
}

/**
 * The agent platform Retell AI (docs/adr/0083-real-providers.md), through its SDK. One Retell LLM per number
 * (the prompt from the number's instructions, the greeting as its first words, a cold transfer to
 * `business_phone` and an end-call tool) and one agent on it whose webhook is our provider-webhook door, with the
 * number's analysis fields as its `post_call_analysis_data` and the webhooks it sends, `RETELL_WEBHOOK_EVENTS` (both set
 * on create and on every update). A ringing call is registered with the agent and dialled over SIP, so the call
 * stays on our Twilio number.
 */
export class RetellAgentRuntime implements AgentRuntime {
  constructor(
    private readonly retell: Retell,
    private readonly options: RetellAgentOptions,
  ) {}

  async upsertAgent(definition: AgentDefinition, existing: AgentRefs | null): Promise<AgentRefs> {
    const llm = {
      general_prompt: agentPrompt(definition),
      begin_message: agentGreeting(definition),
      general_tools: [
        {
          type: 'transfer_call' as const,
          name: 'transfer_to_business',
          description: 'Transfer the caller to a person at the business.',
          transfer_destination: { type: 'predefined' as const, number: definition.businessPhone },
          transfer_option: { type: 'cold_transfer' as const },
        },
        { type: 'end_call' as const, name: 'end_call', description: 'End the call once the caller is done.' },
      ],
    };
    const agentSettings = {
      post_call_analysis_data: postCallAnalysisData(definition.analysisFields),
      webhook_events: RETELL_WEBHOOK_EVENTS,
    };
    return this.call(async () => {
      if (existing?.llmRef) {
        await this.retell.llm.update(existing.llmRef, llm);
        // Every push sets the fields, none included: fields removed from the settings are removed at Retell too. The
        // webhook events go too, so an agent made before they changed gets them at its next push.
        await this.retell.agent.update(existing.agentRef, agentSettings);
        return existing;
      }
      const created = await this.retell.llm.create(llm);
      const agent = await this.retell.agent.create({
        response_engine: { type: 'retell-llm', llm_id: created.llm_id },
        voice_id: this.options.voiceId,
        agent_name: `Switchboard ${definition.phoneNumber}`,
        webhook_url: this.options.webhookUrl,
        ...agentSettings,
      });
      return { agentRef: agent.agent_id, llmRef: created.llm_id };
    });
  }

  async deleteAgent(refs: AgentRefs): Promise<void> {
    await this.call(async () => {
      await this.retell.agent.delete(refs.agentRef).catch(ignoreGone);
      if (refs.llmRef) await this.retell.llm.delete(refs.llmRef).catch(ignoreGone);
    });
  }

  async answerCall(refs: AgentRefs, call: RingingCall): Promise<{ sipUri: string }> {
    const registered = await this.call(() =>
      this.retell.call.registerPhoneCall({
        agent_id: refs.agentRef,
        from_number: call.from,
        to_number: call.to,
        direction: 'inbound',
        metadata: { twilio_call_sid: call.callSid },
      }),
    );
    return { sipUri: `sip:${registered.call_id}@${RETELL_SIP_HOST}` };
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      const status = (error as { status?: number }).status;
      const message = (error as Error).message ?? String(error);
      if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429)
        throw new AgentRefused(`Retell refused the request (HTTP ${status}): ${message}`);
      throw new AgentRuntimeUnavailable(`Retell did not complete the request: ${message}`);
    }
  }
}

/** One item of Retell's `post_call_analysis_data` (the same on agent create and update). */
export type RetellAnalysisItem = NonNullable<Retell.AgentUpdateParams['post_call_analysis_data']>[number];

/**
 * The number's analysis fields as Retell's `post_call_analysis_data`, in the order declared: Retell fills them in
 * after each call and reports them in the call's `call_analysis.custom_analysis_data` (the `call_analyzed` webhook).
 * Our field types are Retell's item types; `choices` go with enum items only.
 */
export function postCallAnalysisData(fields: readonly AnalysisFieldDefinition[]): RetellAnalysisItem[] {
  return fields.map((field): RetellAnalysisItem => {
    const { name, description } = field;
    switch (field.type) {
      case 'enum':
        return { type: 'enum', name, description, choices: [...(field.choices ?? [])] };
      case 'string':
        return { type: 'string', name, description };
      case 'number':
        return { type: 'number', name, description };
      case 'boolean':
        return { type: 'boolean', name, description };
    }
  });
}

/**
 * A delete of an agent or LLM that is already gone: Retell answers 422 (its OpenAPI description lists 204, 400, 401,
 * 422 and 500 for these deletes, no 404); 404 is taken too. Either way it is gone, which is what the delete wanted,
 * so the LLM is still deleted after an agent already gone.
 */
function ignoreGone(error: unknown): void {
  const status = (error as { status?: number }).status;
  if (status !== 404 && status !== 422) throw error;
}

/** Retell's SDK client, loaded only when Retell is configured. */
export async function createRetellClient(
  config: { apiKey: string; apiBaseUrl: URL | undefined },
  options: { timeoutMs?: number } = {},
): Promise<Retell> {
  const { default: RetellClient } = await import('retell-sdk');
  const client: unknown = new RetellClient({
    apiKey: config.apiKey,
    timeout: options.timeoutMs ?? 10_000,
    // One retry of a connection error, 408, 409, 429 or 5xx; AgentSync retries later beyond that.
    maxRetries: 1,
    ...(config.apiBaseUrl ? { baseURL: config.apiBaseUrl.origin } : {}),
  });
  return client as Retell;
}
