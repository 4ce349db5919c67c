import { Injectable } from '@nestjs/common';
import type { NumberAgents } from '../numbers/number-agent.port';
import type { Tx } from '../prisma/numbers-billing-prisma';
import { AgentSync } from './agent-sync';
import { NumberAgentsRepository } from './number-agents.repository';

/** The agent feature as provisioning sees it (numbers/number-agent.port.ts). */
@Injectable()
export class NumberAgentsAdapter implements NumberAgents {
  constructor(
    private readonly agents: NumberAgentsRepository,
    private readonly sync: AgentSync,
  ) {}

  recordFor(
    tx: Tx,
    number: { id: bigint; account_id: string },
    settings: { greeting?: string | null; instructions?: string | null } | undefined,
  ): Promise<void> {
    return this.agents.create(tx, {
      number_id: number.id,
      account_id: number.account_id,
      greeting: settings?.greeting?.trim() || null,
      instructions: settings?.instructions?.trim() || null,
    });
  }

  async businessPhoneChanged(tx: Tx, numberId: bigint): Promise<void> {
    await this.agents.markPending(tx, numberId);
  }

  pushSoon(): void {
    void this.sync.kick();
  }
}
