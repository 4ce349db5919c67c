import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AgentRefused,
  type AgentDefinition,
  type AgentRefs,
  type AgentRuntime,
  type RingingCall,
} from './agent-runtime.port';

/**
 * The simulated agent platform: the agent of a number is a name derived from the number, and its calls are the
 * operator's simulated calls (`POST /admin/provider/calls`), reported as an agent would report them. It keeps nothing
 * of its own, so there is nothing to create or delete. A real call (Twilio ringing a live number while no agent
 * platform is configured) cannot be answered by it: it is refused, and the caller hears busy.
 */
@Injectable()
export class SimulatedAgentRuntime implements AgentRuntime {
  upsertAgent(definition: AgentDefinition): Promise<AgentRefs> {
    const digest = createHash('sha256').update(definition.phoneNumber).digest('hex').slice(0, 24);
    return Promise.resolve({ agentRef: `sim_agent_${digest}`, llmRef: null });
  }

  async deleteAgent(): Promise<void> {}

  answerCall(_refs: AgentRefs, call: RingingCall): Promise<{ sipUri: string }> {
    return Promise.reject(new AgentRefused(`the simulated agent platform cannot answer the real call ${call.callSid}`));
  }
}
