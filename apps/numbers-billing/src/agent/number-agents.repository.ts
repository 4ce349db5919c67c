import { Injectable } from '@nestjs/common';
import type { AnalysisFieldDefinition } from '@switchboard/contracts';
import { sql, type Selectable } from 'kysely';
import type { NumberAgent } from '../generated/kysely/database';
import { Prisma } from '../generated/prisma/client';
import { NumbersBillingPrisma, type Tx } from '../prisma/numbers-billing-prisma';

/**
 * The columns of a `number_agents` row as this build's schema has them, named (not `a.*`) in the hand-written
 * statements: a prepared statement's result columns must not change under it when an expand migration adds a column
 * (docs/operations.md).
 */
const AGENT_COLUMNS = Object.values(Prisma.NumberAgentScalarFieldEnum);

export type NumberAgentRecord = Selectable<NumberAgent>;

/** `AGENT_COLUMNS` of the row called `table` in a statement. */
const agentColumnsOf = (table: string) => sql.join(AGENT_COLUMNS.map((column) => sql.ref(`${table}.${column}`)));

/** An agent AgentSync has to push or remove, with what it needs of its number. */
export type AgentWork = NumberAgentRecord & {
  phone_number: string;
  business_phone: string;
  number_status: string;
};

/** A number's agent settings as the account gives them (null: the default; `[]`: no analysis fields). */
export interface AgentSettings {
  greeting: string | null;
  instructions: string | null;
  analysis_fields: AnalysisFieldDefinition[];
}

export type NewAgent = AgentSettings & { number_id: bigint; account_id: string };

/** The analysis fields as the JSON column takes them. */
const toJson = (fields: AnalysisFieldDefinition[]) => fields as unknown as Prisma.InputJsonArray;

/** How long a claimed piece of work is AgentSync's before another replica may take it (a crash mid-push). */
const CLAIM_LEASE_MS = 60_000;

/** `number_agents`: each number's agent settings and the state of its twin at the agent platform. */
@Injectable()
export class NumberAgentsRepository {
  constructor(private readonly prisma: NumbersBillingPrisma) {}

  /** The agent of a new number, in the transaction that records the number. */
  create(tx: Tx, agent: NewAgent): Promise<NumberAgentRecord> {
    return tx.numberAgent.create({ data: { ...agent, analysis_fields: toJson(agent.analysis_fields) } });
  }

  find(numberId: bigint): Promise<NumberAgentRecord | null> {
    return this.prisma.numberAgent.findUnique({ where: { number_id: numberId } });
  }

  /** New settings: the agent is pushed again (`pending`), and its version grows so an older push cannot mark it ready. */
  update(tx: Tx, numberId: bigint, settings: AgentSettings): Promise<NumberAgentRecord> {
    return tx.numberAgent.update({
      where: { number_id: numberId },
      data: {
        ...settings,
        analysis_fields: toJson(settings.analysis_fields),
        status: 'pending',
        failures: 0,
        last_error: null,
        retry_at: new Date(),
        updated_at: new Date(),
        version: { increment: 1 },
      },
    });
  }

  /** The number changed in a way its agent must follow (its business phone): pushed again, settings unchanged. */
  async markPending(tx: Tx, numberId: bigint): Promise<void> {
    await tx.numberAgent.updateMany({
      where: { number_id: numberId, status: { not: 'released' } },
      data: { status: 'pending', failures: 0, retry_at: new Date(), updated_at: new Date(), version: { increment: 1 } },
    });
  }

  /**
   * Claims up to `limit` agents to push (pending) or remove (their number released, not yet removed), due now: their
   * `retry_at` moves a lease ahead, so another replica's pass skips them while this one works.
   */
  claimWork(limit: number, now: Date = new Date()): Promise<AgentWork[]> {
    return sql<AgentWork>`
      WITH due AS (
        SELECT a.number_id FROM number_agents a JOIN numbers n ON n.id = a.number_id
         WHERE a.retry_at <= ${now}
           AND (a.status = 'pending' OR (n.status = 'released' AND a.status <> 'released'))
         ORDER BY a.retry_at
         LIMIT ${limit}
           FOR UPDATE OF a SKIP LOCKED),
      claimed AS (
        UPDATE number_agents a SET retry_at = ${new Date(now.getTime() + CLAIM_LEASE_MS)}
          FROM due WHERE a.number_id = due.number_id
        RETURNING ${agentColumnsOf('a')})
      SELECT ${agentColumnsOf('c')}, n.phone_number, n.business_phone, n.status AS number_status
        FROM claimed c JOIN numbers n ON n.id = c.number_id`
      .execute(this.prisma.$kysely())
      .then(({ rows }) => rows);
  }

  /** The push of `version` arrived: ready, unless the settings changed meanwhile (then it stays pending). */
  async pushed(numberId: bigint, version: number, refs: { agent_ref: string; llm_ref: string | null }): Promise<void> {
    // Due again at once (the claim's lease ends): a release or a change that came meanwhile is not held up.
    await this.prisma.numberAgent.updateMany({
      where: { number_id: numberId },
      data: { ...refs, retry_at: new Date() },
    });
    await this.prisma.numberAgent.updateMany({
      where: { number_id: numberId, version, status: 'pending' },
      data: { status: 'ready', failures: 0, last_error: null, updated_at: new Date() },
    });
  }

  async removed(numberId: bigint): Promise<void> {
    await this.prisma.numberAgent.update({
      where: { number_id: numberId },
      data: { status: 'released', failures: 0, last_error: null, updated_at: new Date() },
    });
  }

  /** A failure: `failed` for good (the platform refused), or tried again at `retryAt`. */
  async failed(numberId: bigint, error: string, outcome: { refused: true } | { retryAt: Date }): Promise<void> {
    await this.prisma.numberAgent.update({
      where: { number_id: numberId },
      data: {
        failures: { increment: 1 },
        last_error: error.slice(0, 500),
        updated_at: new Date(),
        ...('refused' in outcome ? { status: 'failed' } : { retry_at: outcome.retryAt }),
      },
    });
  }

  /** The number with this phone number that is not released, with its agent (the voice URL's question). */
  async answeringFor(phoneNumber: string): Promise<(NumberAgentRecord & { number_status: string }) | null> {
    const rows = (
      await sql<NumberAgentRecord & { number_status: string }>`
      SELECT ${agentColumnsOf('a')}, n.status AS number_status FROM numbers n JOIN number_agents a ON a.number_id = n.id
       WHERE n.phone_number = ${phoneNumber} AND n.status <> 'released'
       ORDER BY n.id DESC LIMIT 1`.execute(this.prisma.$kysely())
    ).rows;
    return rows[0] ?? null;
  }
}
