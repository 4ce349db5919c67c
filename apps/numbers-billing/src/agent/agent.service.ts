import { Inject, Injectable } from '@nestjs/common';
import {
  ServiceError,
  isTestAccount,
  type AgentSettingsView,
  type AgentStatus,
  type AnswerCallCommand,
  type AnswerCallReply,
  type UpdateNumberAgentCommand,
} from '@switchboard/contracts';
import type { EventCause } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { formatNumberId, parseNumberId } from '../numbers/number-id';
import { NumbersRepository } from '../numbers/numbers.repository';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import { NumbersBillingTransactions } from '../prisma/numbers-billing-prisma';
import { AGENT_RUNTIME, type AgentRuntime } from './agent-runtime.port';
import { AgentSync } from './agent-sync';
import { acceptAnalysisFields, analysisFieldsOf, publishAnalysisFields } from './analysis-fields';
import { NumberAgentsRepository, type NumberAgentRecord } from './number-agents.repository';

/** A number's agent: its settings (`/v1/numbers/{id}/agent`) and where a ringing call goes (docs/adr/0083). */
@Injectable()
export class AgentService {
  constructor(
    private readonly transactions: NumbersBillingTransactions,
    private readonly numbers: NumbersRepository,
    private readonly agents: NumberAgentsRepository,
    private readonly sync: AgentSync,
    private readonly outbox: NumbersOutbox,
    @Inject(AGENT_RUNTIME) private readonly runtime: AgentRuntime,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async get(accountId: string, id: string): Promise<AgentSettingsView> {
    const numberId = parseNumberId(id);
    if (!(await this.numbers.findOwned(accountId, numberId))) throw notFound(numberId);
    const agent = await this.agents.find(numberId);
    if (!agent) throw notFound(numberId);
    return toView(agent);
  }

  /**
   * New settings replace the old (a field left out or null is the default; analysis fields left out or null are
   * none). The answer says `pending` until the agent platform has them; AgentSync pushes them at once and retries
   * until they arrive. The analysis fields are published with the settings' new version, in the same transaction
   * (`number.analysis_fields.changed`: calls-media reads each call's analysis against them).
   */
  async update(accountId: string, command: UpdateNumberAgentCommand, cause: EventCause): Promise<AgentSettingsView> {
    const numberId = parseNumberId(command.id);
    const analysisFields = acceptAnalysisFields(command.analysis_fields);
    const agent = await this.transactions.run(async (tx) => {
      const number = await this.numbers.lockOwned(tx, accountId, numberId);
      if (!number) throw notFound(numberId);
      if (number.status === 'released')
        throw new ServiceError('number_released', `${formatNumberId(numberId)} is released; its agent is gone.`);
      const updated = await this.agents.update(tx, numberId, {
        greeting: command.greeting?.trim() || null,
        instructions: command.instructions?.trim() || null,
        analysis_fields: analysisFields,
      });
      await publishAnalysisFields(this.outbox, tx, updated, cause);
      return updated;
    });
    this.outbox.kick();
    void this.sync.kick();
    return toView(agent);
  }

  /**
   * Twilio asks where a call to one of our numbers goes (the gateway checked its signature). A number in service
   * whose agent exists goes to its agent; anything else is refused (the caller hears busy), with the reason logged.
   */
  async answerCall(command: AnswerCallCommand): Promise<AnswerCallReply> {
    const agent = await this.agents.answeringFor(command.to);
    if (!agent) return this.refuse(command, 'the number is not in service');
    if (!agent.agent_ref)
      return this.refuse(command, `the agent of ${formatNumberId(agent.number_id)} is not made yet`);
    try {
      const { sipUri } = await this.runtime.answerCall(
        { agentRef: agent.agent_ref, llmRef: agent.llm_ref },
        { callSid: command.call_sid, from: command.from, to: command.to },
        { livemode: !isTestAccount(agent.account_id) },
      );
      this.logger.info(
        { call_sid: command.call_sid, number_id: formatNumberId(agent.number_id) },
        'call handed to the agent',
      );
      return { action: 'sip', sip_uri: sipUri };
    } catch (error) {
      return this.refuse(command, (error as Error).message);
    }
  }

  private refuse(command: AnswerCallCommand, reason: string): AnswerCallReply {
    this.logger.warn({ call_sid: command.call_sid, to: command.to, reason }, 'call refused: no agent to answer it');
    return { action: 'reject', reason };
  }
}

function toView(agent: NumberAgentRecord): AgentSettingsView {
  return {
    greeting: agent.greeting,
    instructions: agent.instructions,
    analysis_fields: analysisFieldsOf(agent.analysis_fields),
    // A released number's agent is gone; its settings are still shown as they were.
    status: (agent.status === 'released' ? 'ready' : agent.status) as AgentStatus,
  };
}

function notFound(id: bigint): ServiceError {
  return new ServiceError('not_found', `No number ${formatNumberId(id)} on this account.`);
}
