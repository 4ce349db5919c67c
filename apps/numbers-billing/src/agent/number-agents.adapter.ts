import { Injectable } from '@nestjs/common';
import type { AgentSettingsBody } from '@switchboard/contracts';
import type { EventCause } from '@switchboard/messaging';
import type { NumberAgents } from '../numbers/number-agent.port';
import { NumbersOutbox } from '../outbox/numbers-outbox';
import type { Tx } from '../prisma/numbers-billing-prisma';
import { AgentSync } from './agent-sync';
import { analysisFieldsFrom, publishAnalysisFields } from './analysis-fields';
import { NumberAgentsRepository } from './number-agents.repository';

/** The agent feature as provisioning sees it (numbers/number-agent.port.ts). */
@Injectable()
export class NumberAgentsAdapter implements NumberAgents {
  constructor(
    private readonly agents: NumberAgentsRepository,
    private readonly sync: AgentSync,
    private readonly outbox: NumbersOutbox,
  ) {}

  async recordFor(
    tx: Tx,
    number: { id: bigint; account_id: string },
    settings: AgentSettingsBody | undefined,
    cause: EventCause,
  ): Promise<void> {
    const analysisFields = analysisFieldsFrom(settings?.analysis_fields);
    const agent = await this.agents.create(tx, {
      number_id: number.id,
      account_id: number.account_id,
      greeting: settings?.greeting?.trim() || null,
      instructions: settings?.instructions?.trim() || null,
      analysis_fields: analysisFields,
    });
    // Without fields there is nothing to tell: calls-media reads a number it has heard nothing of as having none.
    if (analysisFields.length > 0) await publishAnalysisFields(this.outbox, tx, agent, cause);
  }

  async businessPhoneChanged(tx: Tx, numberId: bigint): Promise<void> {
    await this.agents.markPending(tx, numberId);
  }

  pushSoon(): void {
    void this.sync.kick();
  }
}
