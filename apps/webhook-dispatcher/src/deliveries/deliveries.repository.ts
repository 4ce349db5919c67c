import { Injectable } from '@nestjs/common';
import { WebhookDispatcherPrisma } from '../prisma/webhook-dispatcher-prisma';
import {
  INTERRUPTED,
  IN_PROGRESS,
  type AttemptClaim,
  type AttemptOutcome,
  type AttemptRecord,
  type DeliveryRecord,
  type DeliveryStatus,
  type DeliveryStore,
  type DeliveryUpdate,
  type NewDelivery,
} from './delivery-store';

/** Deliveries and attempts in webhook-dispatcher's own database. */
@Injectable()
export class DeliveriesRepository implements DeliveryStore {
  constructor(private readonly prisma: WebhookDispatcherPrisma) {}

  async open(delivery: NewDelivery): Promise<DeliveryRecord> {
    await this.prisma.$executeRaw`
      INSERT INTO webhook_deliveries (event_id, call_sid, number_id, account_id)
      VALUES (${delivery.event_id}, ${delivery.call_sid}, ${delivery.number_id}, ${delivery.account_id})
      ON CONFLICT (event_id) DO NOTHING`;
    const row = await this.prisma.webhookDelivery.findUniqueOrThrow({ where: { event_id: delivery.event_id } });
    return { ...row, status: row.status as DeliveryStatus };
  }

  async close(eventId: string, status: Exclude<DeliveryStatus, 'pending'>): Promise<void> {
    await this.prisma.webhookDelivery.updateMany({ where: { event_id: eventId, status: 'pending' }, data: { status, lease_until: null } });
  }

  claimAttempt({ eventId, url, now, leaseUntil }: { eventId: string; url: string; now: Date; leaseUntil: Date }): Promise<AttemptClaim> {
    return this.prisma.$transaction(async (tx): Promise<AttemptClaim> => {
      // The row lock of this update makes concurrent claims of one event wait, then find the lease taken.
      const { count } = await tx.webhookDelivery.updateMany({
        where: { event_id: eventId, status: 'pending', OR: [{ lease_until: null }, { lease_until: { lte: now } }] },
        data: { lease_until: leaseUntil },
      });
      const delivery = await tx.webhookDelivery.findUniqueOrThrow({ where: { event_id: eventId } });
      if (count === 0) {
        if (delivery.status !== 'pending') return { kind: 'closed', status: delivery.status as DeliveryStatus };
        return { kind: 'busy', until: delivery.lease_until ?? now };
      }
      const interrupted = await tx.webhookAttempt.updateMany({
        where: { event_id: eventId, finished_at: null },
        data: { finished_at: now, error: INTERRUPTED },
      });
      const attempt = await tx.webhookAttempt.create({
        data: {
          event_id: eventId,
          call_sid: delivery.call_sid,
          number_id: delivery.number_id,
          url,
          attempt: delivery.attempts + 1,
          error: IN_PROGRESS,
          attempted_at: now,
        },
      });
      return { kind: 'claimed', attemptId: attempt.id, attempt: attempt.attempt, leaseUntil, interrupted: interrupted.count };
    });
  }

  finishAttempt(
    claim: { eventId: string; attemptId: bigint; leaseUntil: Date },
    outcome: AttemptOutcome,
    update: DeliveryUpdate,
  ): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      await tx.webhookAttempt.update({ where: { id: claim.attemptId }, data: outcome });
      const { count } = await tx.webhookDelivery.updateMany({
        where: { event_id: claim.eventId, status: 'pending', lease_until: claim.leaseUntil },
        data: { ...update, lease_until: null },
      });
      return count === 1;
    });
  }

  async listAttempts(numberId: string, limit: number): Promise<AttemptRecord[]> {
    return this.prisma.webhookAttempt.findMany({
      where: { number_id: numberId },
      orderBy: [{ attempted_at: 'desc' }, { id: 'desc' }],
      take: limit,
      select: { event_id: true, call_sid: true, number_id: true, url: true, attempt: true, status_code: true, error: true, attempted_at: true },
    });
  }
}
