import { Injectable } from '@nestjs/common';
import type { SimulateProviderCallBody } from '@switchboard/contracts';
import { sql } from 'kysely';
import { CallsMediaPrisma } from '../prisma/calls-media-prisma';

/** A call the simulated provider plays live: the operator's body, its SID and start fixed when it was accepted. */
export interface SimulatedLivePlan {
  call_sid: string;
  started_at: string;
  command: SimulateProviderCallBody;
}

export interface SimulatedLiveCall {
  plan: SimulatedLivePlan;
  /** 0: the start; 1..n: turn n-1; n+1: the end. */
  next_step: number;
  next_at: Date;
  interval_ms: number;
}

/** The simulated provider's calls in play (`simulated_live_calls`): what survives a restart of calls-media. */
@Injectable()
export class SimulatedLiveCallsRepository {
  constructor(private readonly prisma: CallsMediaPrisma) {}

  async add(plan: SimulatedLivePlan, intervalMs: number, leasedUntil: Date): Promise<void> {
    await this.prisma.simulatedLiveCall.create({
      data: {
        call_sid: plan.call_sid,
        plan: plan as object,
        next_step: 0,
        next_at: new Date(),
        interval_ms: intervalMs,
        leased_until: leasedUntil,
      },
    });
  }

  async find(callSid: string): Promise<SimulatedLiveCall | null> {
    const row = await this.prisma.simulatedLiveCall.findUnique({ where: { call_sid: callSid } });
    return row
      ? {
          plan: row.plan as unknown as SimulatedLivePlan,
          next_step: row.next_step,
          next_at: row.next_at,
          interval_ms: row.interval_ms,
        }
      : null;
  }

  /** The step after `step` is next, due at `nextAt`; the lease runs to `leasedUntil`. False when another moved it. */
  async advance(callSid: string, step: number, nextAt: Date, leasedUntil: Date): Promise<boolean> {
    const { count } = await this.prisma.simulatedLiveCall.updateMany({
      where: { call_sid: callSid, next_step: step },
      data: { next_step: step + 1, next_at: nextAt, leased_until: leasedUntil },
    });
    return count === 1;
  }

  async remove(callSid: string): Promise<void> {
    await this.prisma.simulatedLiveCall.deleteMany({ where: { call_sid: callSid } });
  }

  /**
   * Takes over the calls whose lease ran out (the replica playing them stopped), leasing them until `leasedUntil`;
   * answers their SIDs and when each next step is due.
   */
  async takeOver(now: Date, leasedUntil: Date): Promise<{ call_sid: string; next_at: Date }[]> {
    const { rows } = await sql<{ call_sid: string; next_at: Date }>`
      UPDATE simulated_live_calls SET leased_until = ${leasedUntil.toISOString()}::timestamptz
       WHERE call_sid IN (
         SELECT call_sid FROM simulated_live_calls WHERE leased_until < ${now.toISOString()}::timestamptz
          ORDER BY leased_until LIMIT 100 FOR UPDATE SKIP LOCKED)
      RETURNING call_sid, next_at`.execute(this.prisma.$kysely());
    return rows;
  }
}
