import type { Provider } from '@nestjs/common';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { NumbersBillingConfig } from '../config/numbers-billing.config';
import { NUMBERS_BILLING_CONFIG } from '../config/tokens';
import {
  AGENT_RUNTIME,
  type AgentDefinition,
  type AgentRefs,
  type AgentRuntime,
  type RingingCall,
} from './agent-runtime.port';
import { RetellAgentRuntime, createRetellClient } from './retell-agent-runtime.adapter';
import { SimulatedAgentRuntime } from './simulated-agent-runtime.adapter';

/** Live accounts' agents on the real platform, test accounts' simulated (docs/adr/0087-test-mode.md). */
export class AgentRuntimeByMode implements AgentRuntime {
  constructor(
    private readonly live: AgentRuntime,
    private readonly test: AgentRuntime,
  ) {}

  upsertAgent(definition: AgentDefinition, existing: AgentRefs | null, options: { livemode: boolean }) {
    return this.pick(options).upsertAgent(definition, existing, options);
  }

  deleteAgent(refs: AgentRefs, options: { livemode: boolean }) {
    return this.pick(options).deleteAgent(refs, options);
  }

  answerCall(refs: AgentRefs, call: RingingCall, options: { livemode: boolean }) {
    return this.pick(options).answerCall(refs, call, options);
  }

  private pick(options: { livemode: boolean }): AgentRuntime {
    return options.livemode ? this.live : this.test;
  }
}

/** The one place that chooses the agent platform, from the config read at start. */
export const agentRuntimeProvider: Provider = {
  provide: AGENT_RUNTIME,
  inject: [NUMBERS_BILLING_CONFIG, SimulatedAgentRuntime, LOGGER],
  useFactory: async (
    config: NumbersBillingConfig,
    simulated: SimulatedAgentRuntime,
    logger: Logger,
  ): Promise<AgentRuntime> => {
    if (!config.retell) return simulated;
    logger.info(
      { stand_in: config.retell.apiBaseUrl?.href },
      "live accounts' numbers are answered by Retell agents; test accounts' by the simulated platform",
    );
    const retell = new RetellAgentRuntime(await createRetellClient(config.retell), {
      webhookUrl: `${config.retell.publicBaseUrl}/provider-webhooks/retell`,
      voiceId: config.retell.voiceId,
    });
    return new AgentRuntimeByMode(retell, simulated);
  },
};
