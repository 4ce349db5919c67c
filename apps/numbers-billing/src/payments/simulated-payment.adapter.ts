import { Injectable } from '@nestjs/common';
import { sql, type Selectable } from 'kysely';
import type { SimulatedPaymentFaults } from '../generated/kysely/database';
import { NumbersBillingPrisma } from '../prisma/numbers-billing-prisma';
import { PaymentDeclined, type PaymentGateway } from './payment-gateway.port';

const FAULTS_ROW = 1;

/**
 * The simulated card processor: every customer has a card on file that is charged, unless the operator asked
 * it to decline the next N charges (`PUT /admin/payments/faults`). Charges are kept by idempotency key in its
 * own tables (`simulated_payment_*`): a repeated key answers the first result.
 */
@Injectable()
export class SimulatedPaymentAdapter implements PaymentGateway {
  constructor(private readonly prisma: NumbersBillingPrisma) {}

  async charge(request: {
    customerRef: string;
    amountCents: number;
    idempotencyKey: string;
  }): Promise<{ paymentId: string }> {
    const previous = await this.prisma.simulatedPaymentCharge.findUnique({
      where: { idempotency_key: request.idempotencyKey },
    });
    if (previous) return this.answer(previous.status, previous.idempotency_key);
    const declined = (
      await sql<Pick<Selectable<SimulatedPaymentFaults>, 'charge_failures'>>`
      UPDATE simulated_payment_faults SET charge_failures = charge_failures - 1
       WHERE id = ${FAULTS_ROW} AND charge_failures > 0 RETURNING charge_failures`.execute(this.prisma.$kysely())
    ).rows;
    const status = declined.length > 0 ? 'failed' : 'succeeded';
    await this.prisma.simulatedPaymentCharge.createMany({
      data: [
        {
          idempotency_key: request.idempotencyKey,
          customer_ref: request.customerRef,
          amount_cents: request.amountCents,
          status,
        },
      ],
      skipDuplicates: true,
    });
    const stored = await this.prisma.simulatedPaymentCharge.findUniqueOrThrow({
      where: { idempotency_key: request.idempotencyKey },
    });
    return this.answer(stored.status, stored.idempotency_key);
  }

  /** Operator: decline the next `count` charges. */
  async setFaults(count: number): Promise<{ charge_failures: number }> {
    const row = await this.prisma.simulatedPaymentFaults.upsert({
      where: { id: FAULTS_ROW },
      create: { id: FAULTS_ROW, charge_failures: count },
      update: { charge_failures: count },
    });
    return { charge_failures: row.charge_failures };
  }

  /** Charges the simulated processor took (tests and the operator). */
  chargesOf(customerRef: string): Promise<{ idempotency_key: string; amount_cents: number; status: string }[]> {
    return this.prisma.simulatedPaymentCharge.findMany({
      where: { customer_ref: customerRef },
      orderBy: { created_at: 'asc' },
    });
  }

  private answer(status: string, key: string): { paymentId: string } {
    if (status !== 'succeeded') throw new PaymentDeclined('the simulated card was declined (operator fault injection)');
    return { paymentId: `pay_sim_${key}` };
  }
}
