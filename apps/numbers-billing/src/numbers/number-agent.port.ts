import type { AgentSettingsBody } from '@switchboard/contracts';
import type { EventCause } from '@switchboard/messaging';
import type { Tx } from '../prisma/numbers-billing-prisma';

/**
 * What provisioning needs from the agent feature: a new number's agent recorded with it, then pushed to the agent
 * platform after commit. The agent feature imports numbers (it reads them), so numbers declares what it needs here
 * and `NumberAgentsAdapter` provides it: the two folders do not import each other in a circle.
 */
export interface NumberAgents {
  /**
   * In the transaction that records the number: its agent, with the settings asked for (null: the defaults), and
   * its analysis fields' event when it has any (`cause`: the provisioning's).
   */
  recordFor(
    tx: Tx,
    number: { id: bigint; account_id: string },
    settings: AgentSettingsBody | undefined,
    cause: EventCause,
  ): Promise<void>;
  /** In the transaction that changes `business_phone`: the agent transfers there, so it is pushed again. */
  businessPhoneChanged(tx: Tx, numberId: bigint): Promise<void>;
  /** After commit: bring the agent at the platform in step now rather than at the next pass. */
  pushSoon(): void;
}

export const NUMBER_AGENTS = Symbol('NUMBER_AGENTS');
