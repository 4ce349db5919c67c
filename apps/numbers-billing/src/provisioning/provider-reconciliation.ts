import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@switchboard/observability';
import { NumberOrdersRepository, isLeaseLive, type OrderRecord } from '../numbers/number-orders.repository';
import { LOCKING_TX, NumbersBillingPrisma, NumbersBillingTransactions } from '../prisma/numbers-billing-prisma';
import { TELEPHONY_PROVIDER, type OwnedNumber, type TelephonyProvider } from '../telephony/telephony-provider.port';

/** What one pass found among the numbers we own at the provider. */
export interface ReconciliationReport {
  /** Numbers owned at the provider. */
  owned: number;
  /** Strays given back to the provider. */
  released: number;
  /** Bought for an order still within its lease: its request may yet record it; judged again next pass. */
  inFlight: number;
  /** Strays whose release failed (the provider was unavailable); tried again next pass. */
  failed: number;
}

/** How a number owned at the provider stands against the order that bought it. */
type Standing = 'recorded' | 'in_flight' | 'stray';

/**
 * Compares the numbers we own at the telephony provider with our orders, and gives back the strays: numbers the
 * provider sold for an order that never recorded them (the service crashed between buying and recording, or the
 * purchase answered after we had given up on it), once that order is past its lease. The order, if pending, fails
 * as `abandoned`; nothing is charged, as for any failed provision, and a retry with the same Idempotency-Key buys
 * again under the same order (docs/adr/0011-provisioning-numbers.md).
 */
@Injectable()
export class ProviderReconciliation {
  constructor(
    private readonly prisma: NumbersBillingPrisma,
    private readonly transactions: NumbersBillingTransactions,
    private readonly orders: NumberOrdersRepository,
    @Inject(TELEPHONY_PROVIDER) private readonly provider: TelephonyProvider,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(now: Date = new Date()): Promise<ReconciliationReport> {
    // The provider first, then the orders: an order row is committed before its purchase starts, so every number
    // listed already has its order in what is read next (a reference without one was never ours to record).
    const owned = await this.provider.listOwnedNumbers();
    const orders = new Map(
      (
        await this.orders.findByIds(
          this.prisma,
          owned.map((number) => number.orderRef),
        )
      ).map((order) => [order.id, order]),
    );
    const report: ReconciliationReport = { owned: owned.length, released: 0, inFlight: 0, failed: 0 };
    for (const number of owned) {
      const standing = standingOf(orders.get(number.orderRef), now);
      if (standing === 'recorded') continue;
      if (standing === 'in_flight') {
        report.inFlight += 1;
        continue;
      }
      const outcome = await this.releaseStray(number, orders.get(number.orderRef), now).catch((err: unknown) => {
        this.logger.warn(
          { err, phone_number: number.phoneNumber, order_id: number.orderRef },
          'releasing a stray number at the provider failed; will retry',
        );
        return 'failed' as const;
      });
      if (outcome === 'released') report.released += 1;
      else if (outcome === 'failed') report.failed += 1;
      else report.inFlight += 1;
    }
    return report;
  }

  /**
   * Gives one stray back, judged again under its order's lock: a retry with the same Idempotency-Key takes that
   * lock before it buys, so it cannot take the order over while its number is being released. The release is
   * logged once the order's failure has committed, so whoever reads the log can find the order as it says.
   */
  private async releaseStray(
    number: OwnedNumber,
    seen: OrderRecord | undefined,
    now: Date,
  ): Promise<'released' | 'in_flight'> {
    const released = await this.transactions.run(async (tx) => {
      const order = seen ? await this.orders.lock(tx, seen.id) : null;
      if (order && standingOf(order, now) !== 'stray') return null;
      await this.provider.releaseNumber(number.phoneNumber, {
        livemode: number.livemode,
        orderRef: number.orderRef,
      });
      if (order?.status === 'pending') await this.orders.fail(order.id, 'abandoned', tx);
      return { order };
    }, LOCKING_TX);
    if (!released) return 'in_flight';
    this.logger.warn(
      {
        phone_number: number.phoneNumber,
        order_id: number.orderRef,
        account_id: released.order?.account_id ?? null,
        order_status: released.order?.status ?? 'unknown',
        purchased_at: number.purchasedAt.toISOString(),
      },
      'reconciliation released a number the provider sold us that was never recorded; nothing was charged',
    );
    return 'released';
  }
}

function standingOf(order: OrderRecord | undefined, now: Date): Standing {
  if (!order) return 'stray';
  if (order.status === 'completed') return 'recorded';
  if (order.status === 'pending' && isLeaseLive(order, now)) return 'in_flight';
  return 'stray';
}
