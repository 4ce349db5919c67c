import type { AnalysisFieldDefinition } from '@switchboard/contracts';

/**
 * The AI agent that answers a number (docs/adr/0083-real-providers.md), as the numbers domain sees it: the
 * agent platform keeps one agent per number, made from the number's settings, and tells where a ringing call goes.
 * The simulated runtime is the default; Retell is another adapter behind the same token (agent-runtime.provider.ts).
 * `livemode` is the account's mode: a test account's agents are always simulated (docs/adr/0087).
 */
export interface AgentRuntime {
  /**
   * Makes the number's agent (`existing` null) or brings it to `definition` (`existing` its refs). Answers the refs to
   * keep. Throws `AgentRuntimeUnavailable` (try again later) or `AgentRefused` (the platform will not take it).
   */
  upsertAgent(
    definition: AgentDefinition,
    existing: AgentRefs | null,
    options: { livemode: boolean },
  ): Promise<AgentRefs>;
  /** Removes the agent; removing one already gone succeeds. */
  deleteAgent(refs: AgentRefs, options: { livemode: boolean }): Promise<void>;
  /** Where a call ringing the number now goes: the agent's SIP address for this call. */
  answerCall(refs: AgentRefs, call: RingingCall, options: { livemode: boolean }): Promise<{ sipUri: string }>;
}

/** What an agent is made from. */
export interface AgentDefinition {
  /** The number it answers (E.164). */
  phoneNumber: string;
  /** Where it transfers a caller who asks for a person (E.164). */
  businessPhone: string;
  /** null: the default. */
  greeting: string | null;
  instructions: string | null;
  /** What the agent fills in after each call, in the order declared (`[]`: nothing beyond the platform's own). */
  analysisFields: AnalysisFieldDefinition[];
}

/** The platform's ids of an agent: the agent, and the LLM configuration it answers with (when it has one). */
export interface AgentRefs {
  agentRef: string;
  llmRef: string | null;
}

/** A call Twilio is asking us about (its voice URL). */
export interface RingingCall {
  callSid: string;
  from: string;
  to: string;
}

export const AGENT_RUNTIME = Symbol('AGENT_RUNTIME');

/** A transient failure at the platform; retrying later may succeed. */
export class AgentRuntimeUnavailable extends Error {
  constructor(message = 'the agent platform is unavailable') {
    super(message);
    this.name = 'AgentRuntimeUnavailable';
  }
}

/** The platform refused the request and will again (bad settings, a deleted agent): not retried as it is. */
export class AgentRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentRefused';
  }
}
