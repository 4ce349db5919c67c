import { Inject, Injectable } from '@nestjs/common';
import { sql, type Selectable } from 'kysely';
import { LOGGER, type Logger } from '@switchboard/observability';
import type { NumbersBillingConfig } from '../config/numbers-billing.config';
import { NUMBERS_BILLING_CONFIG } from '../config/tokens';
import type { SimulatedProviderFaults, SimulatedProviderStock } from '../generated/kysely/database';
import { NumbersBillingPrisma, NumbersBillingTransactions } from '../prisma/numbers-billing-prisma';
import { firstFreeNumber } from './phone-pool';
import {
  NoNumbersAvailable,
  ProviderUnavailable,
  type OwnedNumber,
  type ReleaseOptions,
  type TelephonyProvider,
} from './telephony-provider.port';

const FAULTS_ROW = 1;

/**
 * The simulated telephony provider: sells numbers per area code from a stock the operator sets
 * (`PUT /admin/provider/stock/{area_code}`; a generous default otherwise), fails the next N purchases on demand
 * (`PUT /admin/provider/faults`), and keeps every number it sold in its own tables (`simulated_provider_*`).
 * A purchase locks the area code's stock row, so concurrent purchases never sell one number twice or oversell.
 */
@Injectable()
export class SimulatedTelephonyAdapter implements TelephonyProvider {
  constructor(
    private readonly prisma: NumbersBillingPrisma,
    private readonly transactions: NumbersBillingTransactions,
    @Inject(NUMBERS_BILLING_CONFIG) private readonly config: NumbersBillingConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async buyNumber({ areaCode, orderRef }: { areaCode: string; orderRef: string }): Promise<{ phoneNumber: string }> {
    const already = await this.prisma.simulatedProviderNumber.findUnique({ where: { order_ref: orderRef } });
    if (already && already.status === 'sold') return { phoneNumber: already.phone_number };

    // A fault is used up by the attempt it fails, so it is taken in its own statement (committed), not rolled back.
    const faults = (
      await sql<Pick<Selectable<SimulatedProviderFaults>, 'provision_failures'>>`
      UPDATE simulated_provider_faults SET provision_failures = provision_failures - 1
       WHERE id = ${FAULTS_ROW} AND provision_failures > 0 RETURNING provision_failures`.execute(this.prisma.$kysely())
    ).rows;
    if (faults.length > 0)
      throw new ProviderUnavailable('the simulated provider failed this purchase (operator fault injection)');

    const sold = await this.transactions.run(async (tx) => {
      await sql`
        INSERT INTO simulated_provider_stock (area_code, available, updated_at)
        VALUES (${areaCode}, ${this.config.defaultProviderStock}, now()) ON CONFLICT (area_code) DO NOTHING`.execute(
        tx.$kysely(),
      );
      const [stock] = (
        await sql<Pick<Selectable<SimulatedProviderStock>, 'available'>>`
        SELECT available FROM simulated_provider_stock WHERE area_code = ${areaCode} FOR UPDATE`.execute(tx.$kysely())
      ).rows;
      if (stock.available <= 0) throw new NoNumbersAvailable(areaCode);

      // The first candidate in the selling order that is not sold, asked a chunk at a time (phone-pool.ts). Nor one
      // a number of ours holds, bought from the live provider beside it (they share the phone space): selling it
      // would only be refused (docs/adr/0121-calls-and-recordings.md).
      const phoneNumber = await firstFreeNumber(areaCode, async (candidates) => {
        const [free] = (
          await sql<{ phone_number: string }>`
          SELECT c.phone_number FROM unnest(${candidates}::text[]) WITH ORDINALITY AS c(phone_number, position)
           WHERE NOT EXISTS (SELECT 1 FROM simulated_provider_numbers s WHERE s.phone_number = c.phone_number AND s.status = 'sold')
             AND NOT EXISTS (SELECT 1 FROM numbers n WHERE n.phone_number = c.phone_number AND n.status <> 'released')
           ORDER BY c.position LIMIT 1`.execute(tx.$kysely())
        ).rows;
        return free?.phone_number;
      });
      if (!phoneNumber) throw new NoNumbersAvailable(areaCode);

      await tx.simulatedProviderStock.update({ where: { area_code: areaCode }, data: { available: { decrement: 1 } } });
      const now = new Date();
      await tx.simulatedProviderNumber.upsert({
        where: { phone_number: phoneNumber },
        create: { phone_number: phoneNumber, area_code: areaCode, order_ref: orderRef, status: 'sold', sold_at: now },
        update: { order_ref: orderRef, status: 'sold', sold_at: now, released_at: null },
      });
      return { phoneNumber };
    });
    if (this.config.simulatedProviderHangAfterSale) {
      // Test-only fault (refused in production): the sale is committed and the answer never comes, so a test can
      // kill the service in the window between the provider selling a number and our recording it.
      this.logger.warn(
        { phone_number: sold.phoneNumber, order_ref: orderRef },
        'simulated provider sold a number and hangs (SIMULATED_PROVIDER_HANG_AFTER_SALE)',
      );
      await new Promise<never>(() => undefined);
    }
    return sold;
  }

  async listOwnedNumbers(): Promise<OwnedNumber[]> {
    const rows = await this.prisma.simulatedProviderNumber.findMany({
      where: { status: 'sold' },
      orderBy: { sold_at: 'asc' },
    });
    // Alone, it sells to every account; beside a real provider, only to test accounts (telephony.provider.ts).
    return rows.map((row) => ({
      phoneNumber: row.phone_number,
      orderRef: row.order_ref,
      purchasedAt: row.sold_at,
      livemode: true,
    }));
  }

  /**
   * The number goes back to the pool, and the area code's stock grows by one (it can be sold again). With `orderRef`,
   * only while it is still sold under that purchase.
   */
  async releaseNumber(phoneNumber: string, options?: ReleaseOptions): Promise<void> {
    await this.transactions.run(async (tx) => {
      const released = await tx.simulatedProviderNumber.updateMany({
        where: {
          phone_number: phoneNumber,
          status: 'sold',
          ...(options?.orderRef ? { order_ref: options.orderRef } : {}),
        },
        data: { status: 'released', released_at: new Date() },
      });
      if (released.count === 0) return;
      const row = await tx.simulatedProviderNumber.findUniqueOrThrow({ where: { phone_number: phoneNumber } });
      await tx.simulatedProviderStock.updateMany({
        where: { area_code: row.area_code },
        data: { available: { increment: 1 } },
      });
    });
  }

  /** Operator: how many numbers can still be sold in an area code. */
  async setStock(areaCode: string, available: number): Promise<{ area_code: string; available: number }> {
    const row = await this.prisma.simulatedProviderStock.upsert({
      where: { area_code: areaCode },
      create: { area_code: areaCode, available },
      update: { available },
    });
    return { area_code: row.area_code, available: row.available };
  }

  /** Operator: the next `count` purchases fail as a transient provider error. */
  async setFaults(count: number): Promise<{ provision_failures: number }> {
    const row = await this.prisma.simulatedProviderFaults.upsert({
      where: { id: FAULTS_ROW },
      create: { id: FAULTS_ROW, provision_failures: count },
      update: { provision_failures: count },
    });
    return { provision_failures: row.provision_failures };
  }
}
