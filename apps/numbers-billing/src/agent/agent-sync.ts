import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { isTestAccount } from '@switchboard/contracts';
import { LOGGER, type Logger } from '@switchboard/observability';
import { PollingWorker } from '@switchboard/service-runtime';
import { formatNumberId } from '../numbers/number-id';
import { AGENT_RUNTIME, AgentRefused, type AgentRuntime } from './agent-runtime.port';
import { analysisFieldsOf } from './analysis-fields';
import { NumberAgentsRepository, type AgentWork } from './number-agents.repository';

/** How often AgentSync looks for work nobody kicked it for (a retry due, a number released by the billing cycle). */
export const AGENT_SYNC_INTERVAL_MS = 5_000;
/** Agents pushed per claim. */
const BATCH = 20;
/** The longest wait between two tries of a failing push. */
const MAX_RETRY_DELAY_MS = 10 * 60_000;

/**
 * Keeps each number's agent at the platform in step with its settings (docs/adr/0083): makes or updates the agents
 * whose settings are pending and removes those of released numbers. A platform that fails is tried again with a
 * growing delay (1 s, 2 s, 4 s ... 10 min); one that refuses marks the agent `failed` until its settings change. The
 * number itself never waits for the platform: it is bought, charged and answering-ready whatever the platform does.
 */
@Injectable()
export class AgentSync implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly worker: PollingWorker;

  constructor(
    private readonly agents: NumberAgentsRepository,
    @Inject(AGENT_RUNTIME) private readonly runtime: AgentRuntime,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.worker = new PollingWorker({
      intervalMs: AGENT_SYNC_INTERVAL_MS,
      passAtStart: true,
      pass: () => this.pass(),
      onError: (err) => this.logger.warn({ err }, 'agent sync pass failed; will retry'),
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.worker.stop();
  }

  /** Push now (after a number was made or its settings changed); resolves after a pass that began after the call. */
  kick(): Promise<void> {
    return this.worker.kick();
  }

  /** One pass: claims what is due, batch by batch, until nothing is. */
  async pass(): Promise<number> {
    let done = 0;
    for (;;) {
      const work = await this.agents.claimWork(BATCH);
      for (const agent of work) {
        await this.handle(agent);
        done += 1;
      }
      if (work.length < BATCH) return done;
    }
  }

  private async handle(agent: AgentWork): Promise<void> {
    const options = { livemode: !isTestAccount(agent.account_id) };
    const refs = agent.agent_ref ? { agentRef: agent.agent_ref, llmRef: agent.llm_ref } : null;
    try {
      if (agent.number_status === 'released') {
        if (refs) await this.runtime.deleteAgent(refs, options);
        await this.agents.removed(agent.number_id);
        return;
      }
      const made = await this.runtime.upsertAgent(
        {
          phoneNumber: agent.phone_number,
          businessPhone: agent.business_phone,
          greeting: agent.greeting,
          instructions: agent.instructions,
          analysisFields: analysisFieldsOf(agent.analysis_fields),
        },
        refs,
        options,
      );
      await this.agents.pushed(agent.number_id, agent.version, { agent_ref: made.agentRef, llm_ref: made.llmRef });
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      const refused = error instanceof AgentRefused;
      const delay = Math.min(1_000 * 2 ** agent.failures, MAX_RETRY_DELAY_MS);
      await this.agents.failed(
        agent.number_id,
        message,
        refused ? { refused } : { retryAt: new Date(Date.now() + delay) },
      );
      this.logger.warn(
        { err: error, number_id: formatNumberId(agent.number_id), failures: agent.failures + 1 },
        refused ? 'the agent platform refused the agent; it waits for new settings' : 'agent not pushed; will retry',
      );
    }
  }
}
